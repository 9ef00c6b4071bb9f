package runner

import (
	"io"
	"sync"
)

// runAll runs n flows, parallel at once, taking them in order, and prints
// each result as its flow ends: one at a time, in the order given; in
// parallel, as they finish (each line names its flow).
func runAll(n, parallel int, stdout io.Writer, run func(i int) flowResult) []flowResult {
	results := make([]flowResult, n)
	next := make(chan int)
	var mu sync.Mutex // one result's lines at a time
	var wg sync.WaitGroup
	for range min(parallel, n) {
		wg.Go(func() {
			for i := range next {
				results[i] = run(i)
				mu.Lock()
				printResult(stdout, results[i])
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}
