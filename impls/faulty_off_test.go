//go:build !rootbench_faulty

package impls

import (
	"strings"
	"testing"
)

func TestShippedBuildHasNoFaultyCells(t *testing.T) {
	for _, name := range []string{"faulty:crash", "faulty:leak"} {
		if _, err := Lookup(name); err == nil || !strings.Contains(err.Error(), "unknown cell") {
			t.Errorf("Lookup(%q) error = %v; want unknown cell", name, err)
		}
	}
}

func TestShippedBuildRefusesAPlantedSlowdown(t *testing.T) {
	t.Setenv(SlowEnv, "boxroot=20%")
	for _, f := range []func() error{
		func() error { _, err := Lookup("boxroot"); return err },
		func() error { _, err := Resolve([]string{"ocaml"}); return err },
	} {
		err := f()
		if err == nil || !strings.Contains(err.Error(), SlowEnv) || !strings.Contains(err.Error(), "-tags rootbench_faulty") {
			t.Errorf("error = %v; want a refusal naming %s and the build tag", err, SlowEnv)
		}
	}
	t.Setenv(SlowEnv, " ")
	if _, err := Lookup("boxroot"); err != nil {
		t.Errorf("a blank %s is not a request: %v", SlowEnv, err)
	}
}
