package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/ptwiki/pt/wiki/spacegen"
)

// seed fixes the generated spaces, so every run measures the same pages.
const seed = 7

// cachedSpace returns the kept space of n pages under c.cache, generating
// it the first time. A space is complete once its marker file exists, so a
// generation cut short is redone rather than measured.
func cachedSpace(ctx context.Context, c config, n int) (string, error) {
	dir := filepath.Join(c.cache, fmt.Sprintf("space-%d-seed%d", n, seed))
	marker := dir + ".done"
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "generating a space of %d pages in %s\n", n, dir)
	start := time.Now()
	s, err := spacegen.Generate(ctx, dir, spacegen.Options{Pages: n, Seed: seed, BatchSize: 5000})
	if err != nil {
		return "", fmt.Errorf("generate %d pages: %w", n, err)
	}
	s.Close()
	// Build the derived index once, so every copy starts from a space
	// whose index reflects HEAD, as a space in use has.
	if out, err := exec.CommandContext(ctx, c.pt, "--kb", dir, "query-kb", "warm up the index").CombinedOutput(); err != nil {
		return "", fmt.Errorf("first query on %s: %v\n%s", dir, err, out)
	}
	fmt.Fprintf(os.Stderr, "generated in %s\n", time.Since(start).Round(time.Second))
	return dir, os.WriteFile(marker, nil, 0o644)
}

// workCopy copies a kept space to a fresh folder to measure on.
func workCopy(ctx context.Context, src, name string) (string, error) {
	dst := src + "-work-" + name
	if err := os.RemoveAll(dst); err != nil {
		return "", err
	}
	if out, err := exec.CommandContext(ctx, "cp", "-a", src, dst).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copy %s: %v\n%s", src, err, out)
	}
	return dst, nil
}
