package lint_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptwiki/pt/lint"
)

// curateOpen curates files (committed under pages/) at the decision time
// and returns the open curation rows by check.
func curateOpen(t *testing.T, files map[string]string, opts lint.CurateOptions) map[string][]lint.Finding {
	t.Helper()
	fs := map[string][]byte{}
	for p, c := range files {
		fs[p] = []byte(c)
	}
	s := filesSpace(t, fs, "pages/")
	if opts.Now.IsZero() {
		opts.Now = curateWhen
	}
	opts.DryRun, opts.NoCache = true, true
	rep, err := lint.Curate(context.Background(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]lint.Finding{}
	for _, f := range rep.Open() {
		out[f.Check] = append(out[f.Check], f)
	}
	return out
}

func TestCurateContradiction(t *testing.T) {
	got := curateOpen(t, map[string]string{
		"freeze.md":  "# Freeze\n\nDeploys freeze at 14:00 UTC on the Friday before a release.\n",
		"deploy.md":  "# Deploying\n\nThe deploy freeze begins at 16:00 UTC on the Friday before a release.\n",
		"meeting.md": "# Meetings\n\nThe planning meeting is at 16:00 UTC on Mondays.\n",
	}, lint.CurateOptions{})
	cs := got[lint.CheckContradiction]
	if len(cs) != 1 {
		t.Fatalf("contradictions: %+v", cs)
	}
	ev := cs[0].Evidence
	if len(ev) != 2 || ev[0].Path != "pages/deploy.md" || ev[0].Value != "16:00 utc" || ev[1].Value != "14:00 utc" || ev[0].Line != 3 || len(ev[0].Revision) != 40 {
		t.Errorf("evidence: %+v", ev)
	}
}

func TestCurateStaleClaim(t *testing.T) {
	files := map[string]string{
		"survey.md":  "# Survey\n\nThe survey is open until 2025-09-30.\n",
		"history.md": "# History\n\nIn 2019 the team moved the builders to new machines.\n",
		"plans.md":   "# Plans\n\nThe next summit will be held in May 2027.\n",
		"tools.md":   "---\ntitle: Tools\nexpires: 2026-06-01\n---\nCurrently, as of March 2021, we build with the old script.\n",
		"go.md":      "# Go\n\nGo 1.25 is out. As of Go 1.19, the default is the old linker.\n",
		// An archived page is a record of its time.
		"archive/wg.md": "# Working group\n\nWe will evaluate our progress at KubeCon EU 2019.\n",
	}
	got := curateOpen(t, files, lint.CurateOptions{})
	paths := map[string]string{}
	for _, f := range got[lint.CheckStale] {
		paths[f.Path] = f.Message
	}
	for _, p := range []string{"pages/survey.md", "pages/go.md"} {
		if paths[p] == "" {
			t.Errorf("%s: no stale_claim in %v", p, paths)
		}
	}
	if _, ok := paths["pages/history.md"]; ok {
		t.Errorf("history is not a stale claim: %v", paths)
	}
	if _, ok := paths["pages/archive/wg.md"]; ok {
		t.Errorf("an archived page is a record: %v", paths)
	}
	if _, ok := paths["pages/plans.md"]; ok {
		t.Errorf("a future date is not stale: %v", paths)
	}
	// tools.md expired, so it is no longer an active page.
	if _, ok := paths["pages/tools.md"]; ok {
		t.Errorf("an expired page has no claims: %v", paths)
	}
	// The decision time decides: before the survey closes it holds.
	early := curateOpen(t, files, lint.CurateOptions{Now: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	for _, f := range early[lint.CheckStale] {
		if f.Path == "pages/survey.md" {
			t.Errorf("stale before the date passed: %s", f.Message)
		}
	}
}

func TestCurateMissingConcept(t *testing.T) {
	files := map[string]string{}
	for i, p := range []string{"a.md", "b.md", "c.md", "d.md"} {
		files[p] = "# Page " + p + "\n\nWait out the soak period before promoting; number " + string(rune('1'+i)) + ".\n"
	}
	files["e.md"] = "# Flake budget\n\nThe flake budget bounds retries.\n"
	for _, p := range []string{"f.md", "g.md", "h.md"} {
		files[p] = "# Other " + p + "\n\nSpend the flake budget with care.\n"
	}
	got := curateOpen(t, files, lint.CurateOptions{})
	var terms []string
	for _, f := range got[lint.CheckMissingConcept] {
		terms = append(terms, f.Target)
	}
	if strings.Join(terms, ",") != "soak period" {
		t.Errorf("missing concepts %v, want [soak period] (flake budget has a page)", terms)
	}
	if got := curateOpen(t, files, lint.CurateOptions{MinPages: 5}); len(got[lint.CheckMissingConcept]) != 0 {
		t.Errorf("with min_pages 5: %+v", got[lint.CheckMissingConcept])
	}
}

func TestCurateMergeCandidate(t *testing.T) {
	a := "# Timeouts\n\nTo time out a call, start it in a goroutine that sends its result on a buffered channel, " +
		"then select on that channel and on time.After with the deadline. The buffered channel lets the " +
		"goroutine finish and exit even when nobody receives its result after the timeout fired.\n"
	b := "# Call timeouts\n\nSelect on the result channel and on time.After with the deadline to time out a call. " +
		"Start the call in a goroutine sending its result on a buffered channel: buffered, so that the goroutine " +
		"can finish and exit even when nobody receives the result once the timeout fired.\n"
	other := "# Semaphores\n\nA buffered channel of empty structs bounds how many goroutines run at once: send before " +
		"the work and receive after it, and the capacity is the limit on concurrent workers in the pool.\n"
	got := curateOpen(t, map[string]string{"timeouts.md": a, "call-timeouts.md": b, "semaphore.md": other,
		"notes-2024.md": a, "notes-2025.md": a}, lint.CurateOptions{})
	ms := got[lint.CheckMerge]
	if len(ms) != 1 || ms[0].Path != "pages/call-timeouts.md" || ms[0].Target != "pages/timeouts.md" {
		t.Errorf("merge candidates: %+v", ms)
	}
}

func TestCurateUnpromotedLesson(t *testing.T) {
	retro := func(n string) string {
		return "---\nkind: retrospective\ntitle: Cycle " + n + "\n---\n## Lessons\n\n- Pin the toolchain version in CI before the release branch is cut.\n"
	}
	files := map[string]string{"r1.md": retro("1"), "r2.md": retro("2")}
	got := curateOpen(t, files, lint.CurateOptions{})
	if len(got[lint.CheckLesson]) != 1 {
		t.Fatalf("lessons: %+v", got[lint.CheckLesson])
	}
	files["toolchain.md"] = "# Pin the toolchain version\n\nWhy and how.\n"
	if got := curateOpen(t, files, lint.CurateOptions{}); len(got[lint.CheckLesson]) != 0 {
		t.Errorf("a page holds the lesson: %+v", got[lint.CheckLesson])
	}
}

// TestCurateBadInput: empty pages, binary and oversized files, other
// scripts and a space with no pages curate without error.
func TestCurateBadInput(t *testing.T) {
	huge := strings.Repeat("Deploys freeze at 14:00 UTC on Fridays. 部署在星期五冻结。 ", 200000)
	got := curateOpen(t, map[string]string{
		"empty.md":  "",
		"blank.md":  "---\ntitle: Blank\n---\n",
		"binary.md": "\x00\x01\x02",
		"huge.md":   huge,
		"cjk.md":    "# 部署\n\n部署在每个星期五的十四点冻结。 Деплой замораживается в пятницу.\n",
		"bad.md":    "---\ntitle: [unclosed\n---\nbody\n",
	}, lint.CurateOptions{})
	for k, fs := range got {
		if k == lint.CheckContradiction || k == lint.CheckMerge {
			t.Errorf("%s on bad input: %+v", k, fs)
		}
	}
	if got := curateOpen(t, map[string]string{}, lint.CurateOptions{}); len(got) != 0 {
		t.Errorf("no pages: %+v", got)
	}
}

// confirmer answers with a fixed verdict, or fails.
type confirmer struct {
	keep  bool
	err   error
	asked int
}

func (c *confirmer) Confirm(ctx context.Context, f lint.Finding) (bool, string, error) {
	c.asked++
	return c.keep, "the two pages name one freeze", c.err
}

func TestCurateModel(t *testing.T) {
	files := map[string]string{
		"freeze.md": "# Freeze\n\nDeploys freeze at 14:00 UTC on the Friday before a release.\n",
		"deploy.md": "# Deploying\n\nThe deploy freeze begins at 16:00 UTC on the Friday before a release.\n",
	}
	yes := &confirmer{keep: true}
	got := curateOpen(t, files, lint.CurateOptions{Model: yes})
	if cs := got[lint.CheckContradiction]; len(cs) != 1 || cs[0].Reason != "the two pages name one freeze" {
		t.Errorf("confirmed: %+v", cs)
	}
	if got := curateOpen(t, files, lint.CurateOptions{Model: &confirmer{keep: false}}); len(got[lint.CheckContradiction]) != 0 {
		t.Errorf("dismissed, still reported: %+v", got)
	}
	// A model that fails keeps what the rules found, without a reason.
	down := &confirmer{err: errors.New("model: no answer within 20s")}
	got = curateOpen(t, files, lint.CurateOptions{Model: down})
	if cs := got[lint.CheckContradiction]; len(cs) != 1 || cs[0].Reason != "" {
		t.Errorf("model down: %+v", cs)
	}
}

// TestCurateSummaryIsNotAMergeCandidate is the reproduction of pt curate on
// an imported space reporting every source beside its own summary, which
// restates it on purpose, as a merge candidate.
func TestCurateSummaryIsNotAMergeCandidate(t *testing.T) {
	body := "To time out a call, start it in a goroutine that sends its result on a buffered channel, " +
		"then select on that channel and on time.After with the deadline. The buffered channel lets the " +
		"goroutine finish and exit even when nobody receives its result after the timeout fired.\n"
	summary := func(kind string) string {
		return "---\ntitle: Timeouts\nkind: " + kind + "\n---\n" + body
	}
	got := curateOpen(t, map[string]string{"timeouts.md": "# Timeouts\n\n" + body,
		"timeouts-summary.md": summary("source_summary")}, lint.CurateOptions{})
	if ms := got[lint.CheckMerge]; len(ms) != 0 {
		t.Errorf("a source and its summary are merge candidates: %+v", ms)
	}
	got = curateOpen(t, map[string]string{"timeouts.md": "# Timeouts\n\n" + body,
		"timeouts-copy.md": summary("page")}, lint.CurateOptions{})
	if ms := got[lint.CheckMerge]; len(ms) != 1 {
		t.Errorf("two pages that say the same: merge candidates %+v, want one", ms)
	}
}
