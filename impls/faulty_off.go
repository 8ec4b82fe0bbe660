//go:build !rootbench_faulty

package impls

import (
	"fmt"
	"os"
	"strings"
)

// registerTestOnly registers the test-only cells: none in a shipped build.
func registerTestOnly() {}

// plant refuses every lookup while SlowEnv is set: this build cannot plant a
// slowdown, and ignoring the request would measure an unslowed run as if it
// were slowed.
func plant(e Entry) (Entry, error) {
	if v := os.Getenv(SlowEnv); strings.TrimSpace(v) != "" {
		return Entry{}, fmt.Errorf("%s=%s is set, but this binary was built without -tags rootbench_faulty and cannot plant a slowdown: unset %s or use a test build",
			SlowEnv, v, SlowEnv)
	}
	return e, nil
}
