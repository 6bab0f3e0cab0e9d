package ingest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/lint"
	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

// derivedSequences is how many random sequences of batches
// TestDerivedIndexIsAFunctionOfHead runs in the full run (PT_E2E=1, as
// `make e2e` and CI run it); the everyday `go test ./...` runs
// derivedQuickSequences, so that it stays quick, and -short fewer still.
const (
	derivedSequences      = 200
	derivedQuickSequences = 24
)

// derivedQuestions are asked after every batch (so that the kept index
// follows the space batch by batch) and compared at the end.
var derivedQuestions = []string{
	derivedQuestion,
	"how do I unstick the ledger queue?",
	"do we retry payment calls on timeout?",
	"what is the holiday freeze?",
}

// TestDerivedIndexIsAFunctionOfHead applies random sequences of batches
// (ingest, import, revert, lint, reap, file-back, a person's git commit, a
// sync that pulls another replica's batch) to a small space, asking a
// question after each with one Engine, and checks that the answers at the
// end are byte for byte those of an index rebuilt at the same head.
func TestDerivedIndexIsAFunctionOfHead(t *testing.T) {
	t.Parallel()
	n := derivedQuickSequences
	if os.Getenv("PT_E2E") != "" {
		n = derivedSequences
	}
	if testing.Short() {
		n = 8
	}
	// A sequence mostly waits (fsync, git's programs), so more of them run
	// at once than there are processors.
	seeds := make(chan uint64)
	var wg sync.WaitGroup
	var forks sync.RWMutex
	for range derivedWorkers {
		wg.Go(func() {
			for seed := range seeds {
				t.Run(fmt.Sprint(seed), func(t *testing.T) { runDerivedSequence(t, seed, &forks) })
			}
		})
	}
	for seed := range uint64(n) {
		seeds <- seed
	}
	close(seeds)
	wg.Wait()
}

// derivedWorkers is how many sequences run at once. A step that starts
// git (a person's commit, a sync) holds forks exclusively and every other
// step holds it shared: a child process holds a copy of the parent's file
// descriptors until it execs, and with them the lock bluge takes while it
// writes a segment, which a concurrent index update would then find busy.
const derivedWorkers = 8

// derivedSyncEvery is how often a sequence syncs (see runDerivedSequence).
const derivedSyncEvery = 10

// derivedRun is one sequence's space and what its steps need.
type derivedRun struct {
	t       *testing.T
	ctx     context.Context
	rng     *rand.Rand
	s       *wiki.Space
	dir     string
	kept    *retrieve.Engine
	when    time.Time
	batches []string
	other   *wiki.Space // the replica whose batches a sync pulls; nil until the first sync
}

func runDerivedSequence(t *testing.T, seed uint64, forks *sync.RWMutex) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, err := wiki.Init(ctx, dir, wiki.InitOptions{Name: "payments", When: derivedWhen})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := &derivedRun{t: t, ctx: ctx, rng: rand.New(rand.NewPCG(seed, 7)), s: s, dir: dir, when: derivedWhen}
	r.kept = retrieve.Open(s, retrieve.Options{})
	defer r.kept.Close()
	steps := []func(){r.ingest, r.ingest, r.ingest, r.importDir, r.revert, r.lint, r.reap, r.fileBack, r.handEdit, r.sync}
	var did []int
	for k := range 2 + r.rng.IntN(4) {
		i := r.rng.IntN(len(steps) - 1)
		if k == 1 && seed%derivedSyncEvery == 0 {
			// A sync runs git's transport programs and costs as much
			// as a whole sequence of other steps: one sequence in
			// derivedSyncEvery pulls another replica's batch.
			i = len(steps) - 1
		}
		did = append(did, i)
		r.when = r.when.Add(time.Hour)
		holding(forks, i >= len(steps)-2, steps[i])
		holding(forks, false, r.follow)
	}
	if r.other != nil {
		defer r.other.Close()
	}
	forks.RLock()
	defer forks.RUnlock()
	got, want := answers(t, r.kept, s, derivedQuestions)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("steps %v: the kept index answers unlike a rebuild (-rebuild +kept):\n%s", did, diff)
	}
}

// holding runs f holding forks, exclusively when f starts git. A failing
// f (t.Fatal) still releases it.
func holding(forks *sync.RWMutex, exclusive bool, f func()) {
	if exclusive {
		forks.Lock()
		defer forks.Unlock()
	} else {
		forks.RLock()
		defer forks.RUnlock()
	}
	f()
}

// follow brings the kept index to the space's head, as the next step
// after each batch.
func (r *derivedRun) follow() {
	// The index follows the space batch by batch: a question (which
	// also fills the caches) or a refresh (what pt serve does on a
	// timer).
	if r.rng.IntN(2) == 0 {
		if err := r.kept.Refresh(r.ctx); err != nil {
			r.t.Fatal(err)
		}
		return
	}
	q := derivedQuestions[r.rng.IntN(len(derivedQuestions))]
	if _, err := r.kept.Query(r.ctx, retrieve.Request{Question: q, Now: derivedWhen}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *derivedRun) ingest() {
	src := derivedSources[r.rng.IntN(len(derivedSources))]
	src.ApprovedBy, src.When = "dana", r.when
	if r.rng.IntN(2) == 0 {
		// A revision of the source, or a new one like it.
		src.Body = append(src.Body, fmt.Sprintf("\nUpdate %d: the ledger team reviewed this.\n", r.rng.IntN(5))...)
		if r.rng.IntN(2) == 0 {
			src.Title += fmt.Sprint(" (", r.rng.IntN(3), ")")
		}
	}
	res, err := ingest.Ingest(r.ctx, r.s, src)
	if err != nil {
		r.t.Fatal(err)
	}
	r.batches = append(r.batches, res.Batch)
}

func (r *derivedRun) importDir() {
	in := filepath.Join(r.t.TempDir(), "notes")
	if err := os.MkdirAll(in, 0o755); err != nil {
		r.t.Fatal(err)
	}
	for i := range 1 + r.rng.IntN(2) {
		body := fmt.Sprintf("# Notes %d\n\nThe holiday freeze starts on %d December; only the ledger fixes ship.\n", i, 10+r.rng.IntN(10))
		if err := os.WriteFile(filepath.Join(in, fmt.Sprintf("freeze-%d.md", r.rng.IntN(3))), []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	res, err := ingest.Import(r.ctx, r.s, in, ingest.ImportOptions{ApprovedBy: "dana", When: r.when})
	if err != nil {
		r.t.Fatal(err)
	}
	r.batches = append(r.batches, res.Batch)
}

// revert undoes an earlier batch; a revert refused because a later batch
// changed its pages writes nothing, which is a sequence too.
func (r *derivedRun) revert() {
	if len(r.batches) == 0 {
		return
	}
	id := r.batches[r.rng.IntN(len(r.batches))]
	if _, err := r.s.Revert(r.ctx, id, wiki.RevertOptions{ApprovedBy: "dana", When: r.when}); err == nil {
		r.batches = nil // reverting twice, or a revert's batch, is wiki's test
	}
}

func (r *derivedRun) lint() {
	if _, err := lint.Run(r.ctx, r.s, lint.Options{Now: r.when}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *derivedRun) reap() {
	if _, err := ingest.Reap(r.ctx, r.s, r.when.AddDate(0, 6, 0), "dana"); err != nil {
		r.t.Fatal(err)
	}
}

func (r *derivedRun) fileBack() {
	_, err := ingest.FileBack(r.ctx, r.s, ingest.Consult{Question: "how do we stop double charges on retries?",
		Answer:    "Payment endpoints require an idempotency key, so a retried call returns the first response instead of charging twice.",
		Citations: []string{"sources/adr-7-payment-endpoints-require-an-idempotency-key.md"}, AskedBy: "sam", When: r.when, Retriever: r.kept})
	if err != nil {
		r.t.Fatal(err)
	}
}

// handEdit is a person's commit made with git: a page written or removed
// by hand.
func (r *derivedRun) handEdit() {
	p := fmt.Sprintf("pages/by-hand-%d.md", r.rng.IntN(2))
	full := filepath.Join(r.dir, filepath.FromSlash(p))
	if _, err := os.Stat(full); err == nil && r.rng.IntN(2) == 0 {
		git(r.t, r.dir, "rm", "-q", p)
	} else {
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		body := fmt.Sprintf("# Retry policy\n\nClients retry payment calls %d times with backoff, always with the same idempotency key.\n", 1+r.rng.IntN(5))
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
		git(r.t, r.dir, "add", p)
	}
	git(r.t, r.dir, "commit", "-q", "--allow-empty", "-m", "person: edit "+p)
}

// sync pulls a batch another replica pushed. The first sync makes the
// remote: a bare repository, and a clone of it as the other replica.
func (r *derivedRun) sync() {
	if r.other == nil {
		base := r.t.TempDir()
		bare := filepath.Join(base, "kb.git")
		git(r.t, base, "init", "-q", "--bare", "-b", "main", bare)
		git(r.t, r.dir, "remote", "add", "origin", bare)
		git(r.t, r.dir, "push", "-q", "origin", "main")
		clone := filepath.Join(base, "other")
		git(r.t, base, "clone", "-q", bare, clone)
		var err error
		if r.other, err = wiki.Open(r.ctx, clone); err != nil {
			r.t.Fatal(err)
		}
	}
	if _, err := r.other.Sync(r.ctx, wiki.SyncOptions{}); err != nil {
		r.t.Fatal(err)
	}
	src := derivedSources[r.rng.IntN(len(derivedSources))]
	src.Title += " (replica)"
	src.ApprovedBy, src.When = "kim", r.when
	if _, err := ingest.Ingest(r.ctx, r.other, src); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.other.Sync(r.ctx, wiki.SyncOptions{}); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.s.Sync(r.ctx, wiki.SyncOptions{}); err != nil {
		r.t.Fatal(err)
	}
}
