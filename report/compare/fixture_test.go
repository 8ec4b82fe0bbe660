package compare

import (
	"github.com/rootbench/rootbench/harness"
	"github.com/rootbench/rootbench/internal/harnesstest"
)

// spec is one result of a fixture: a label and its samples in seconds.
type spec = harnesstest.Spec

// fixture builds a results file holding the given samples as runs.
func fixture(specs ...spec) *harness.File { return harnesstest.Add(harnesstest.File(), specs...) }

// noisy and scaled draw and scale samples (see harnesstest).
var noisy, scaled = harnesstest.Noisy, harnesstest.Scaled
