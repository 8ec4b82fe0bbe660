package main

import (
	"strings"
	"testing"
)

func TestWithSection(t *testing.T) {
	t.Parallel()
	doc := withSection("# x\n", replayBegin+"\none\n"+replayEnd)
	if sectionOf(doc) != replayBegin+"\none\n"+replayEnd {
		t.Fatalf("appended: %q", doc)
	}
	doc = withSection(doc+"\ntail\n", replayBegin+"\ntwo\n"+replayEnd)
	if strings.Contains(doc, "one") || !strings.Contains(doc, "two") || !strings.HasSuffix(doc, "tail\n") {
		t.Errorf("replaced: %q", doc)
	}
}
