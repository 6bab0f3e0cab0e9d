package lint

import "testing"

// TestTimedOfTense: a sentence is a timed claim when it speaks of the
// present or the future; history in the past tense, an illustration, a
// year naming a thing, a supposition, a quotation and "as of <version>"
// saying since when something holds are not.
func TestTimedOfTense(t *testing.T) {
	for text, want := range map[string]bool{
		// history told in the past tense
		"Until Go 1.17, the Go compiler always generated x86 binaries.":                  false,
		"The calls were added in Kubernetes 1.7, but the kubelet did not yet use them.":  false,
		"In Kubernetes v1.24 we shipped Go 1.18, so we temporarily prohibited generics.": false,
		"This was announced in 2019: no more retries for e2e tests as of 2019-12-13.":    false,
		"In 2019 the team found a regression that was currently no longer supported.":    false,
		// an illustration, a year naming a thing, a supposition, a quotation
		"Good example: We will start the project in early 2019.":                                 false,
		"In this notebook we will compare responses between the 2018 and 2019 surveys.":          false,
		"In contrast to what we would expect, more people report problems in 2019 than in 2018.": false,
		`Draft PDF, ASPLOS 2017: "...Castor currently supports C and Go on FreeBSD....`:          false,
		"As of Go 1.17, the runtime/cgo package provides a Handle type.":                         false,
		"FlexVolume is GA as of Kubernetes 1.8.":                                                 false,
		// a version that a superlative ranges over, or that names a branch
		"The baseline is the latest minor release for Go 1.21.":  false,
		"The latest fixes are on release-branch.go1.16 for now.": false,
		// the present or the future
		"Install the latest Go 1.11 release.":                                                         true,
		"As of Go 1.5, only darwin/amd64 works on the iOS simulator.":                                 true,
		"As of Go 1.16, the recommended way to install gomote is go get.":                             true,
		"As of April 2019, this is the current best practice.":                                        true,
		"Until the migration completes in March 2025, jobs keep running on Google-owned machines.":    true,
		"Currently, we still publish images to the old registry, which was frozen on April 3, 2023.":  true,
		"For now, the builder stays on the dashboard, although support for it ended in January 2023.": true,
		"Go 1.12 has improved it, with further improvements expected in Go 1.13.":                     true,
		"Discussion did not identify any blockers, so it is now scheduled for Go 1.16.":               true,
		"Leave modules on, but as needed disable them temporarily and enable Go 1.10 behavior.":       true,
		"The 2024 annual report drafts are due by February 14, 2025.":                                 true,
		"Until Go 1.23 is released, you need GOEXPERIMENT=rangefunc to try range-over-func.":          true,
	} {
		tc, ok := timedOf(sentence{Line: 1, Text: text})
		if ok != want {
			t.Errorf("timedOf(%q) = %v (marker %q, anchors %v), want %v", text, ok, tc.Marker, tc.Anchors, want)
		}
	}
}

// TestSegmentSentences: two spaces after a period end a sentence, and an
// HTML table is data, not prose.
func TestSegmentSentences(t *testing.T) {
	body := "Working groups are time limited.  We expect to wrap up in 2019.\n\n" +
		"<table>\n<tr><td>not yet a member</td><td>2018</td></tr>\n</table>\n\nAfter the table.\n"
	sents, _ := segment([]byte(body), 1)
	var got []string
	for _, s := range sents {
		got = append(got, s.Text)
	}
	want := []string{"Working groups are time limited.", "We expect to wrap up in 2019.", "After the table."}
	if len(got) != len(want) {
		t.Fatalf("sentences %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d = %q, want %q", i, got[i], want[i])
		}
	}
}
