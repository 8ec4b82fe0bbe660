//go:build !cgo

package callback

import (
	"context"
	"errors"
)

// Available reports whether this build can run the workload (it needs cgo).
const Available = false

// Unavailable says why the workload cannot run in this build.
const Unavailable = "the callback workload needs cgo: rebuild with CGO_ENABLED=1 and a C compiler"

// Run always fails in a build without cgo, with an error carrying
// Unavailable.
func Run(ctx context.Context, p Params, h RootHandle) (Result, error) {
	return Result{}, errors.New(Unavailable)
}
