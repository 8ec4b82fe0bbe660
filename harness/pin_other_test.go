//go:build !linux

package harness

import "fmt"

// checkAffinity needs Linux.
func checkAffinity(want []int) (int, error) {
	return 0, fmt.Errorf("thread affinity can only be checked on Linux")
}
