package web

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// fileDiff is what a commit did to one file, as unified-diff hunks.
type fileDiff struct {
	Path    string
	Status  string // added, modified or deleted
	From    string // blob before ("" when added)
	To      string // blob after ("" when deleted)
	Hunks   []hunk
	Added   int
	Removed int
	Note    string // why there are no hunks: binary content, or too large
}

// hunk is a run of changes with up to diffContext lines around them.
type hunk struct {
	Header string
	Lines  []diffLine
}

// diffLine is one line of a hunk: Op is '+', '-' or ' '.
type diffLine struct {
	Op   string
	Old  int // line number before; 0 for an added line
	New  int // line number after; 0 for a removed line
	Text string
}

// Limits of the diff: lines of context, and the size of the table the
// line matching may build before it shows a block as replaced whole.
const (
	diffContext  = 3
	maxDiffCells = 1 << 20
	maxDiffBytes = 1 << 20
)

// diffBlobs diffs two blobs of path p ("" for none).
func (site *Site) diffBlobs(ctx context.Context, p, from, to string) (fileDiff, error) {
	fd := fileDiff{Path: p, From: from, To: to, Status: "modified"}
	switch {
	case from == "":
		fd.Status = "added"
	case to == "":
		fd.Status = "deleted"
	}
	var a, b []byte
	var err error
	if from != "" {
		if a, err = site.space.ReadBlob(ctx, from); err != nil {
			return fd, err
		}
	}
	if to != "" {
		if b, err = site.space.ReadBlob(ctx, to); err != nil {
			return fd, err
		}
	}
	switch {
	case !isText(a) || !isText(b):
		fd.Note = "binary content"
		return fd, nil
	case len(a)+len(b) > maxDiffBytes:
		fd.Note = fmt.Sprintf("too large to show (%d bytes)", len(a)+len(b))
		return fd, nil
	}
	fd.Hunks, fd.Added, fd.Removed = diffLines(splitLines(string(a)), splitLines(string(b)))
	return fd, nil
}

func isText(b []byte) bool { return bytes.IndexByte(b, 0) < 0 && utf8.Valid(b) }

// splitLines splits text into lines without their newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// diffLines returns the hunks that turn a into b, and the counts of
// lines added and removed.
func diffLines(a, b []string) (hs []hunk, added, removed int) {
	ops := editScript(a, b)
	for _, o := range ops {
		switch o.Op {
		case "+":
			added++
		case "-":
			removed++
		}
	}
	return hunks(ops), added, removed
}

// editScript matches a against b line by line: equal ends are taken
// first, the middle by a longest common subsequence, or as removed and
// added whole when it is too large to match.
func editScript(a, b []string) []diffLine {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []diffLine
	for i := 0; i < pre; i++ {
		out = append(out, diffLine{Op: " ", Old: i + 1, New: i + 1, Text: a[i]})
	}
	out = append(out, middle(a[pre:len(a)-suf], b[pre:len(b)-suf], pre)...)
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		out = append(out, diffLine{Op: " ", Old: ai + 1, New: bi + 1, Text: a[ai]})
	}
	return out
}

// middle diffs the differing middle of two files; off is the number of
// equal lines before it.
func middle(a, b []string, off int) []diffLine {
	n, m := len(a), len(b)
	var out []diffLine
	if n*m > maxDiffCells || n == 0 || m == 0 {
		for i, l := range a {
			out = append(out, diffLine{Op: "-", Old: off + i + 1, Text: l})
		}
		for j, l := range b {
			out = append(out, diffLine{Op: "+", New: off + j + 1, Text: l})
		}
		return out
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return lcs[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			v := max(at(i+1, j), at(i, j+1))
			if a[i] == b[j] {
				v = at(i+1, j+1) + 1
			}
			lcs[i*(m+1)+j] = v
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, diffLine{Op: " ", Old: off + i + 1, New: off + j + 1, Text: a[i]})
			i, j = i+1, j+1
		case j < m && (i == n || at(i, j+1) >= at(i+1, j)):
			out = append(out, diffLine{Op: "+", New: off + j + 1, Text: b[j]})
			j++
		default:
			out = append(out, diffLine{Op: "-", Old: off + i + 1, Text: a[i]})
			i++
		}
	}
	return out
}

// hunks groups an edit script into hunks with diffContext lines of
// context, as diff -u does.
func hunks(ops []diffLine) []hunk {
	var out []hunk
	for i := 0; i < len(ops); {
		if ops[i].Op == " " {
			i++
			continue
		}
		start := max(0, i-diffContext)
		end := i
		for end < len(ops) {
			if ops[end].Op != " " {
				end++
				continue
			}
			// a run of equal lines: the hunk goes on past it only if the
			// next change is within twice the context.
			k := end
			for k < len(ops) && ops[k].Op == " " {
				k++
			}
			if k == len(ops) || k-end > 2*diffContext {
				end = min(len(ops), end+diffContext)
				break
			}
			end = k
		}
		out = append(out, hunk{Header: hunkHeader(ops[start:end]), Lines: ops[start:end]})
		i = end
	}
	return out
}

// hunkHeader is the @@ -a,b +c,d @@ line of a hunk.
func hunkHeader(ls []diffLine) string {
	oldStart, newStart, oldN, newN := 0, 0, 0, 0
	for _, l := range ls {
		if l.Old > 0 {
			if oldStart == 0 {
				oldStart = l.Old
			}
			oldN++
		}
		if l.New > 0 {
			if newStart == 0 {
				newStart = l.New
			}
			newN++
		}
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldStart, oldN, newStart, newN)
}
