//go:build !cgo

package callback

import (
	"context"
	"strings"
	"testing"
)

func TestUnavailableWithoutCgo(t *testing.T) {
	t.Parallel()
	if Available {
		t.Error("Available is true without cgo")
	}
	if !strings.Contains(Unavailable, "CGO_ENABLED=1") {
		t.Errorf("Unavailable = %q, want it to say how to rebuild", Unavailable)
	}
	_, err := Run(context.Background(), DefaultParams(), nil)
	if err == nil || err.Error() != Unavailable {
		t.Errorf("Run without cgo = %v, want %q", err, Unavailable)
	}
}
