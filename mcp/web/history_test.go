package web

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLogListsEveryCommit: the log shows git log's commits, newest first,
// each linked by its batch id (or hash for a person's commit).
func TestLogListsEveryCommit(t *testing.T) {
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})
	body := mustGet(t, srv.URL+"/log?n=500")
	got := regexp.MustCompile(`<a href="/batch/([^"]+)"><code>`).FindAllStringSubmatch(body, -1)
	var ids []string
	for _, m := range got {
		ids = append(ids, m[1])
	}
	var want []string
	for _, l := range strings.Split(gitRun(t, dir, "log", "--first-parent", "--format=%H %(trailers:key=Batch-Id,valueonly,separator=)"), "\n") {
		h, id, _ := strings.Cut(l, " ")
		if id == "" {
			id = h
		}
		want = append(want, id)
	}
	if d := cmp.Diff(want, ids); d != "" {
		t.Errorf("log (-git +view):\n%s", d)
	}
	if code, _ := get(t, srv.URL+"/log?n=0"); code != 400 {
		t.Errorf("/log?n=0: %d, want 400", code)
	}
}

// TestBatchDiff: a batch's view lists the files git says it changed, with
// the lines git counts as added and removed.
func TestBatchDiff(t *testing.T) {
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})
	ctx := context.Background()
	cs, err := s.History(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range cs {
		if c.Parent == "" {
			continue
		}
		id := c.Hash
		if c.Batch != nil {
			id = c.Batch.BatchID
		}
		body := mustGet(t, srv.URL+"/batch/"+id)
		want := map[string]string{}
		for _, l := range strings.Split(gitRun(t, dir, "diff", "--numstat", c.Parent, c.Hash), "\n") {
			f := strings.Fields(l)
			want[f[2]] = "+" + f[0] + " −" + f[1]
		}
		got := map[string]string{}
		for _, m := range regexp.MustCompile(`(?s)<section class="file" data-path="([^"]+)">.*?<span class="plus">(\+\d+)</span> <span class="minus">(−\d+)</span>`).FindAllStringSubmatch(body, -1) {
			got[m[1]] = m[2] + " " + m[3]
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("batch %s (-git +view):\n%s", id, d)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("checked %d batches", checked)
	}
	if code, _ := get(t, srv.URL+"/batch/b-20990101-000000"); code != 404 {
		t.Errorf("unknown batch: %d, want 404", code)
	}
}

// TestPageHistoryAndDiff: a page's history lists git log -- PATH, and each
// revision's diff shows the lines it changed.
func TestPageHistoryAndDiff(t *testing.T) {
	s, dir := fixture(t, false)
	srv := serve(t, s, Options{})
	body := mustGet(t, srv.URL+pageURL(pathRunbook)+"?history")
	want := strings.Fields(gitRun(t, dir, "log", "--first-parent", "--format=%H", "--", pathRunbook))
	got := regexp.MustCompile(`\?diff=([0-9a-f]{40})`).FindAllStringSubmatch(body, -1)
	if len(got) != len(want) || len(want) != 2 {
		t.Fatalf("history lists %d revisions, git %d (want 2)", len(got), len(want))
	}
	for i := range want {
		if got[i][1] != want[i] {
			t.Errorf("revision %d: %s, git %s", i, got[i][1], want[i])
		}
	}
	// The person's edit: one line out, one in.
	diff := mustGet(t, srv.URL+pageURL(pathRunbook)+"?diff="+want[0])
	del := regexp.MustCompile(`<tr class="del"><td class="ln">(\d+)</td><td class="ln"></td><td class="code"><span class="op">-</span>([^<]*)</td>`).FindAllStringSubmatch(diff, -1)
	add := regexp.MustCompile(`<tr class="add"><td class="ln"></td><td class="ln">(\d+)</td><td class="code"><span class="op">(?:\+|&#43;)</span>([^<]*)</td>`).FindAllStringSubmatch(diff, -1)
	if len(del) != 1 || len(add) != 1 || !strings.Contains(del[0][2], "3 replicas") || !strings.Contains(add[0][2], "4 replicas") {
		t.Fatalf("diff of the edit: removed %v, added %v", del, add)
	}
	// At the line git's own diff names.
	hunk := gitRun(t, dir, "diff", "-U0", want[0]+"^", want[0], "--", pathRunbook)
	m := regexp.MustCompile(`@@ -(\d+)`).FindStringSubmatch(hunk)
	if m == nil || m[1] != del[0][1] {
		t.Errorf("removed line %s, git says %v", del[0][1], m)
	}
	// The old revision opens as it was.
	old := mustGet(t, srv.URL+pageURL(pathRunbook)+"?at="+want[1])
	if !strings.Contains(old, "3 replicas") || !strings.Contains(old, `class="old"`) {
		t.Errorf("the page at %s does not show its old text", short(want[1]))
	}
}

// TestDiffLines: the hunks of a small edit, as diff -U3 writes them.
func TestDiffLines(t *testing.T) {
	var a []string
	for i := 1; i <= 20; i++ {
		a = append(a, "line "+strconv.Itoa(i))
	}
	b := append([]string{}, a...)
	b[4] = "changed 5"
	b = append(b[:15], append([]string{"inserted"}, b[15:]...)...)
	hs, added, removed := diffLines(a, b)
	if added != 2 || removed != 1 {
		t.Errorf("added %d, removed %d", added, removed)
	}
	var got []string
	for _, h := range hs {
		got = append(got, h.Header)
	}
	if d := cmp.Diff([]string{"@@ -2,7 +2,7 @@", "@@ -13,6 +13,7 @@"}, got); d != "" {
		t.Errorf("hunks (-want +got):\n%s", d)
	}
	if hs, a, r := diffLines(nil, []string{"x", "y"}); len(hs) != 1 || a != 2 || r != 0 || hs[0].Header != "@@ -0,0 +1,2 @@" {
		t.Errorf("new file: %+v", hs)
	}
}
