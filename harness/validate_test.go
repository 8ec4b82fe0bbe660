package harness

import (
	"math"
	"strings"
	"testing"
)

func TestDecodeRejectsBadSamples(t *testing.T) {
	t.Parallel()
	const head = `{"schema": "rootbench/v1", "results": [{"label": "boxroot", "cell": "boxroot", "runs": [`
	good := `{"wall_ns": 1000, "cells": 10}`
	for _, c := range []struct{ run, want string }{
		{`{"wall_ns": -5, "cells": 10}`, "wall_ns is -5: must be a positive number of nanoseconds"},
		{`{"wall_ns": 0, "cells": 10}`, "wall_ns is 0"},
		{`{"wall_ns": 1000, "cells": 0}`, "cells is 0: must be a positive count"},
		{`{"wall_ns": 1000, "cells": 10, "user_ns": -1}`, "user_ns is -1: must be zero or more"},
		{`{"wall_ns": 1000, "cells": 10, "gc": {"max_pause_ns": -3}}`, "gc.max_pause_ns is -3"},
		{`{"wall_ns": 1000, "cells": 10, "gc": {"cpu_percent": -0.5}}`, "gc.cpu_percent is -0.5"},
	} {
		_, err := Decode(strings.NewReader(head+good+","+c.run+"]}]}"), "f.json")
		if err == nil {
			t.Errorf("%s: accepted", c.run)
			continue
		}
		for _, w := range []string{"f.json", `result "boxroot" (#1) run 2 of 2`, c.want} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.run, err, w)
			}
		}
	}
	// A failed run is not a sample: its zeros are fine.
	if _, err := Decode(strings.NewReader(head+good+`,{"failed": true, "wall_ns": 0}]}]}`), "f.json"); err != nil {
		t.Errorf("failed run with zeros rejected: %v", err)
	}
	// Numbers JSON cannot hold (NaN, overflow) are refused by the decoder.
	if _, err := Decode(strings.NewReader(head+`{"wall_ns": 1e999, "cells": 10}]}]}`), "f.json"); err == nil {
		t.Error("an overflowing wall_ns was accepted")
	}
	f := &File{Results: []Result{{Label: "x", Runs: []Run{{WallNs: 1, Cells: 1, GC: GC{CPUPercent: math.NaN()}}}}}}
	if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "gc.cpu_percent is NaN") {
		t.Errorf("NaN cpu_percent: %v", err)
	}
}
