package harness

import (
	"debug/buildinfo"
	"runtime/debug"
)

// ToolOf describes the rootbench binary at path from its embedded build
// information (what `go version -m PATH` prints): module version, VCS
// revision, whether its tree was modified, Go version. A file without build
// information (a wrapper script, say) gives Version "(unknown)" and no
// revision; err says why, and the Tool is still usable.
func ToolOf(path string, commandLine []string) (Tool, error) {
	t := Tool{Name: ToolName, Version: "(unknown)", CommandLine: commandLine}
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return t, err
	}
	fillTool(&t, bi)
	return t, nil
}

// fillTool copies the version, revision and Go version from bi into t.
func fillTool(t *Tool, bi *debug.BuildInfo) {
	if bi.Main.Version != "" {
		t.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		t.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			t.Revision = s.Value
		case "vcs.modified":
			t.Modified = s.Value == "true"
		}
	}
}
