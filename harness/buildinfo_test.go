package harness

import (
	"os"
	"testing"
)

func TestToolOf(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tool, err := ToolOf(exe, []string{"x"})
	if err != nil || tool.GoVersion == "" || tool.Name != ToolName {
		t.Errorf("ToolOf(test binary) = %+v, %v", tool, err)
	}
	script := writeScript(t, "wrapper.sh", "#!/bin/sh\nexec true\n")
	tool, err = ToolOf(script, nil)
	if err == nil || tool.Version != "(unknown)" || tool.Revision != "" {
		t.Errorf("ToolOf(script) = %+v, %v; want an error and an unknown version", tool, err)
	}
}
