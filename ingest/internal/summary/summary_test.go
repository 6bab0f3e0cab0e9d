package summary

import (
	"flag"
	"github.com/ptwiki/pt/wiki/spacegen"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// render is the golden form of a summary: the one-line summary, then the
// page body.
func render(s Summary) string {
	return "line: " + s.Line + "\n\n" + s.Markdown()
}

func TestSummarizeGolden(t *testing.T) {
	tests := []struct {
		file, title string
		// Checked in addition to the golden file, so that an -update cannot
		// quietly accept a regression in what matters most.
		decisions, actions []string
	}{
		{
			file: "meeting-notes.md", title: "Storage sync, 2026-11-03",
			decisions: []string{
				"Key the index by commit and update it incrementally from the tree diff.",
				"Store derived data under `.git/pt/`; fall back to `.pt/` for bare setups.",
				"We agreed that a full rebuild stays available as `pt index rebuild`.",
			},
			actions: []string{
				"@ravi will write the tree-diff updater and benchmark it on the gowiki corpus.",
				"Mei to add a crash test that kills the updater halfway through.",
				"Update the design doc section on derived data.",
			},
		},
		{
			file: "postmortem.md", title: "Postmortem: lost batch on concurrent writes",
			decisions: []string{
				"All writes now go through a single owner type that holds the repository behind a mutex and updates the reference with git's lock-file protocol and a compare-and-swap.",
			},
			actions: []string{
				"Dana — add a stress test with eight concurrent writers to CI.",
				"Document go-git's reference update semantics in the wiki package docs.",
				"@mei will audit the other write paths (revert, reap) for plain sets.",
			},
		},
		{
			file: "decision-thread.md", title: "Which frontmatter library do we use?",
			decisions: []string{
				"After the call on Thursday we decided to use go.abhg.dev/goldmark/frontmatter and to keep the parsed yaml.Node around for round-tripping.",
				"Unknown keys are preserved in their original position.",
				"Content is the only package that imports goldmark or the frontmatter extension.",
			},
			actions: []string{
				"Tomás will write the round-trip fuzz test.",
				"Check that CRLF line endings survive a rewrite.",
			},
		},
		{file: "howto.md", title: "How to add a lint check"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "summary", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			s := Summarize(tt.title, src, Options{})
			if diff := cmp.Diff(tt.decisions, s.Decisions); diff != "" {
				t.Errorf("Decisions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.actions, s.Actions); diff != "" {
				t.Errorf("Actions (-want +got):\n%s", diff)
			}
			checkLine(t, s.Line)
			golden := filepath.Join("testdata", "summary", strings.TrimSuffix(tt.file, ".md")+".golden")
			got := render(s)
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if again := render(Summarize(tt.title, src, Options{})); again != got {
				t.Error("Summarize is not deterministic")
			}
		})
	}
}

func TestSummarizeDetails(t *testing.T) {
	tests := []struct {
		name, title, body string
		want              Summary
	}{
		{
			name: "empty body falls back to title", title: "Empty", body: "",
			want: Summary{Line: "Empty"},
		},
		{
			name: "link-only and toc lines are not the summary", title: "Guide",
			body: "Table of contents\n\n[Home](Home.md)\n\nThis guide explains how pages are stored in the repository.\n",
			// "guide" makes it a procedure, whose opening says its goal
			want: Summary{
				Line: "This guide explains how pages are stored in the repository.",
				Lead: []string{"This guide explains how pages are stored in the repository."},
			},
		},
		{
			name: "code and tables are skipped", title: "Build",
			body: "```sh\nmake all # the whole build runs here and prints a lot\n```\n\n| a | b |\n|---|---|\n| build step one | build step two |\n\nThe build uses make and takes about two minutes.\n",
			want: Summary{
				Line:         "The build uses make and takes about two minutes.",
				KeySentences: []string{"The build uses make and takes about two minutes."},
			},
		},
		{
			name: "emphasis and links stripped; outline indented", title: "Notes",
			body: "# Top\n\n## Part **one**\n\n### Sub\n\nThe *quick* brown [fox](http://x.example) jumps over the __lazy__ dog every day.\n\nSetext\n------\n\n" +
				// code counts in the source's length, so that the outline fits
				"```\n" + strings.Repeat("code that the summary leaves out\n", 6) + "```\n",
			want: Summary{
				Line:         "The quick brown fox jumps over the lazy dog every day.",
				KeySentences: []string{"The quick brown fox jumps over the lazy dog every day."},
				Outline:      []string{"- Top", "  - Part one", "    - Sub", "  - Setext"},
			},
		},
		{
			name: "long first sentence is truncated", title: "Long",
			body: strings.Repeat("Words that keep going and going ", 12) + "end.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.title, []byte(tt.body), Options{})
			checkLine(t, got.Line)
			if tt.want.Line == "" {
				return // only the line checks apply
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaryMarkdownOmitsEmptySections(t *testing.T) {
	s := Summary{Line: "x", KeySentences: []string{"A."}, Actions: []string{"B."}}
	want := "## Action items\n\n- B.\n\n## Key points\n\n- A.\n"
	if got := s.Markdown(); got != want {
		t.Errorf("Markdown() = %q, want %q", got, want)
	}
	if got := (Summary{}).Markdown(); got != "" {
		t.Errorf("empty summary renders %q", got)
	}
}

var markupLine = regexp.MustCompile("^[#>|<`*\\[-]|\\]\\(|```|<[a-zA-Z/]")

func checkLine(t *testing.T, line string) {
	t.Helper()
	switch {
	case strings.TrimSpace(line) == "":
		t.Errorf("summary line is empty")
	case strings.ContainsAny(line, "\n\r"):
		t.Errorf("summary line spans lines: %q", line)
	case utf8.RuneCountInString(line) > 200:
		t.Errorf("summary line has %d characters: %q", utf8.RuneCountInString(line), line)
	case markupLine.MatchString(line):
		t.Errorf("summary line looks like markup: %q", line)
	}
}

// TestSummarizeCorpus checks the summary line on 30 real pages of the Go
// wiki (every fifth file in name order, so the sample is fixed).
func TestSummarizeCorpus(t *testing.T) {
	dir := filepath.Join(spacegen.Corpora(), "gowiki")
	paths, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(paths) == 0 {
		t.Skipf("corpus not present: %s", dir)
	}
	sort.Strings(paths)
	n := 0
	for i := 0; i < len(paths) && n < 30; i += 5 {
		b, err := os.ReadFile(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		n++
		title := strings.TrimSuffix(filepath.Base(paths[i]), ".md")
		s := Summarize(title, b, Options{})
		t.Logf("%s: %s", title, s.Line)
		checkLine(t, s.Line)
	}
}

func BenchmarkSummarize(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "summary", "postmortem.md"))
	if err != nil {
		b.Fatal(err)
	}
	src = []byte(strings.Repeat(string(src)+"\n", 20))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Summarize("Postmortem", src, Options{})
	}
}

func FuzzSummarize(f *testing.F) {
	for _, name := range []string{"meeting-notes.md", "postmortem.md", "howto.md"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "summary", name)); err == nil {
			f.Add("Title", b)
		}
	}
	f.Add("", []byte("---\nx: 1\n"))
	f.Add("t", []byte("> q\n- [ ] a\n```\ncode"))
	f.Fuzz(func(t *testing.T, title string, body []byte) {
		s := Summarize(title, body, Options{MaxSentences: 3})
		if strings.ContainsAny(s.Line, "\n\r") || utf8.RuneCountInString(s.Line) > LineMax {
			t.Fatalf("bad line %q", s.Line)
		}
		if len(s.KeySentences) > 3 {
			t.Fatalf("%d key sentences", len(s.KeySentences))
		}
		_ = s.Markdown()
	})
}
