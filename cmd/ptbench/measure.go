package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// sample is one finished run of a command, or of the commands an anchor
// takes in sequence: its wall time and the CPU time its processes used.
type sample struct{ wall, cpu time.Duration }

// timed runs one process with its output thrown away and times it.
func timed(ctx context.Context, dir string, env []string, name string, args ...string) (sample, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		// rg exits 1 when no file matches: a finished search, not a failure.
		if ee, ok := err.(*exec.ExitError); !ok || filepath.Base(name) != "rg" || ee.ExitCode() != 1 {
			return sample{}, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
		}
	}
	ps := cmd.ProcessState
	return sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime()}, nil
}

func (a sample) plus(b sample) sample { return sample{a.wall + b.wall, a.cpu + b.cpu} }

// measureSize measures every figure on the space of n pages.
func measureSize(ctx context.Context, c config, n int) ([]row, error) {
	kept, err := cachedSpace(ctx, c, n)
	if err != nil {
		return nil, err
	}
	var rows []row
	if c.only == "" || c.only == "ingest" {
		r, err := measureIngest(ctx, c, kept, n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	if c.only == "" || c.only == "query" {
		r, err := measureQuery(ctx, c, kept, n)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// benchEnv names the person of every commit, for pt and git alike.
func benchEnv() []string {
	return []string{
		"PT_AUTHOR=bench", "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com",
	}
}

// measureIngest alternates one `pt ingest` with `git add` and `git commit`
// of the same source and summary files in a second copy of the space.
func measureIngest(ctx context.Context, c config, kept string, n int) (row, error) {
	ptDir, err := workCopy(ctx, kept, "pt")
	if err != nil {
		return row{}, err
	}
	gitDir, err := workCopy(ctx, kept, "git")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(ptDir)
	defer os.RemoveAll(gitDir)
	r := row{pages: n, figure: "one `pt ingest`", anchor: "`git add` + `git commit` of the same two files"}
	for i := -1; i < c.runs; i++ { // run -1 warms the page cache and is not counted
		src := filepath.Join(filepath.Dir(ptDir), fmt.Sprintf("note-%d.md", i+1))
		if err := os.WriteFile(src, []byte(noteText(i+1)), 0o644); err != nil {
			return row{}, err
		}
		a, err := timed(ctx, ptDir, benchEnv(), c.pt, "ingest", src, "--approved-by", "bench")
		if err != nil {
			return row{}, err
		}
		files, err := ingestedFiles(ctx, ptDir, gitDir)
		if err != nil {
			return row{}, err
		}
		b, err := timed(ctx, gitDir, benchEnv(), "git", append([]string{"add", "--"}, files...)...)
		if err != nil {
			return row{}, err
		}
		b2, err := timed(ctx, gitDir, benchEnv(), "git", "commit", "-q", "-m", fmt.Sprintf("ingest: note %d", i+1))
		if err != nil {
			return row{}, err
		}
		if i >= 0 {
			r.add(a, b.plus(b2))
		}
		os.Remove(src)
	}
	return r, nil
}

// ingestedFiles copies the source and summary that the last pt ingest
// wrote into the git copy and returns their paths.
func ingestedFiles(ctx context.Context, ptDir, gitDir string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", ptDir, "diff-tree", "--no-commit-id", "--name-only", "--relative", "-r", "HEAD~1", "HEAD").Output()
	if err != nil {
		return nil, fmt.Errorf("git diff-tree in %s: %w", ptDir, err)
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		if !strings.HasPrefix(f, "sources/") && !strings.HasPrefix(f, "summaries/") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(ptDir, f))
		if err != nil {
			return nil, err
		}
		dst := filepath.Join(gitDir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if len(files) != 2 {
		return nil, fmt.Errorf("the ingest wrote %v, want a source and its summary", files)
	}
	return files, nil
}

// queryWord is the word of run i, searched by both commands.
func queryWord(i int) string {
	words := []string{"failover", "compaction", "quorum", "canary", "rollback", "certificate", "throughput", "scheduler", "replica", "billing", "migration", "tenant"}
	return words[(i%len(words)+len(words))%len(words)]
}

// measureQuery alternates a cold `pt query-kb` process with ripgrep listing
// the files that hold the same word.
func measureQuery(ctx context.Context, c config, kept string, n int) (row, error) {
	dir, err := workCopy(ctx, kept, "query")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(dir)
	r := row{pages: n, figure: "cold `pt query-kb`", anchor: "`rg -l -i -w WORD` over the same files"}
	for i := -1; i < c.runs; i++ {
		w := queryWord(i + 1)
		a, err := timed(ctx, dir, nil, c.pt, "--kb", dir, "query-kb", w)
		if err != nil {
			return row{}, err
		}
		b, err := timed(ctx, dir, nil, c.rg, "-l", "-i", "-w", w, dir)
		if err != nil {
			return row{}, err
		}
		if i >= 0 {
			r.add(a, b)
		}
	}
	return r, nil
}

// noteText is a source of about 4 KB, different each run.
func noteText(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Bench note %d\n\n", i)
	for p := 0; b.Len() < 4000; p++ {
		w := queryWord(i + p)
		fmt.Fprintf(&b, "The %s work of note %d, part %d, changed how the team handles %s during a release; "+
			"the owner wrote down the decision, its tradeoff and the follow-up items for the next cycle.\n\n", w, i, p, w)
	}
	return b.String()
}
