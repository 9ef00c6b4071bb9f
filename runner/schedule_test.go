package runner

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestRunAll: every flow runs once and its result is told once, never two
// at a time; one at once, in the order given; the results come back in
// the order given whatever order the flows end in.
func TestRunAll(t *testing.T) {
	for _, parallel := range []int{1, 3, 9} {
		var runs [5]atomic.Int32
		var telling atomic.Bool
		var told []string
		results := runAll(5, parallel, func(i int) flowResult {
			runs[i].Add(1)
			return flowResult{name: fmt.Sprint(i)}
		}, func(r flowResult) {
			if !telling.CompareAndSwap(false, true) {
				t.Error("two results told at once")
			}
			told = append(told, r.name)
			telling.Store(false)
		})
		for i := range runs {
			if n := runs[i].Load(); n != 1 {
				t.Errorf("parallel %d: flow %d ran %d times", parallel, i, n)
			}
			if results[i].name != fmt.Sprint(i) {
				t.Errorf("parallel %d: result %d is flow %s's", parallel, i, results[i].name)
			}
		}
		if len(told) != 5 {
			t.Errorf("parallel %d: told %v", parallel, told)
		}
		if parallel == 1 && fmt.Sprint(told) != "[0 1 2 3 4]" {
			t.Errorf("one at once, told in the order %v", told)
		}
	}
}
