package runner

import "sync"

// runAll runs n flows, parallel at once, taking them in order, and tells
// ended each result as its flow ends, one at a time: with one at once in
// the order given, in parallel as they finish. It returns the results in
// the order given.
func runAll(n, parallel int, run func(i int) flowResult, ended func(flowResult)) []flowResult {
	results := make([]flowResult, n)
	next := make(chan int)
	var mu sync.Mutex // one result at a time
	var wg sync.WaitGroup
	for range min(parallel, n) {
		wg.Go(func() {
			for i := range next {
				results[i] = run(i)
				mu.Lock()
				ended(results[i])
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
