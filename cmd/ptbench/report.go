package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// row is one figure: pt's runs and its anchor's, paired in run order.
type row struct {
	pages          int
	figure, anchor string
	pt, other      []sample
}

func (r *row) add(pt, other sample) {
	r.pt = append(r.pt, pt)
	r.other = append(r.other, other)
}

// spread is the median, minimum and maximum of some figures.
type spread struct{ med, min, max float64 }

func spreadOf(v []float64) spread {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return spread{}
	}
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return spread{med, s[0], s[len(s)-1]}
}

func ms(s []sample, cpu bool) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		d := x.wall
		if cpu {
			d = x.cpu
		}
		out[i] = float64(d) / float64(time.Millisecond)
	}
	return out
}

// ratios is pt's wall time over its anchor's, pair by pair, so that a
// machine that slows down or speeds up during the run moves both sides.
func (r row) ratios() []float64 {
	out := make([]float64, len(r.pt))
	for i := range r.pt {
		out[i] = float64(r.pt[i].wall) / float64(r.other[i].wall)
	}
	return out
}

func printRows(w io.Writer, rows []row) {
	for _, r := range rows {
		p, pc, o, oc, q := spreadOf(ms(r.pt, false)), spreadOf(ms(r.pt, true)), spreadOf(ms(r.other, false)), spreadOf(ms(r.other, true)), spreadOf(r.ratios())
		fmt.Fprintf(w, "%d pages: %s\n", r.pages, r.figure)
		fmt.Fprintf(w, "  pt     wall ms  median %7.1f  min %7.1f  max %7.1f   (cpu median %.1f)\n", p.med, p.min, p.max, pc.med)
		fmt.Fprintf(w, "  anchor wall ms  median %7.1f  min %7.1f  max %7.1f   (cpu median %.1f) %s\n", o.med, o.min, o.max, oc.med, r.anchor)
		fmt.Fprintf(w, "  ratio pt/anchor median %7.2f  min %7.2f  max %7.2f\n", q.med, q.min, q.max)
	}
}

// markdownTable renders every row as docs/performance.md's table.
func markdownTable(rows []row) string {
	var b strings.Builder
	b.WriteString("| pages | figure | pt wall, median (min–max) | pt CPU | anchor | anchor wall | anchor CPU | ratio of walls, median (min–max) |\n")
	b.WriteString("|---:|---|---|---:|---|---:|---:|---|\n")
	for _, r := range rows {
		p, pc, o, oc, q := spreadOf(ms(r.pt, false)), spreadOf(ms(r.pt, true)), spreadOf(ms(r.other, false)), spreadOf(ms(r.other, true)), spreadOf(r.ratios())
		fmt.Fprintf(&b, "| %d | %s | %.0f ms (%.0f–%.0f) | %.0f ms | %s | %.0f ms | %.0f ms | %.2f× (%.2f–%.2f) |\n",
			r.pages, r.figure, p.med, p.min, p.max, pc.med, r.anchor, o.med, oc.med, q.med, q.min, q.max)
	}
	return b.String()
}

// machineNote says what the figures were measured on and when, and what
// else was busy, since the machine may be shared.
func machineNote() string {
	load, _ := os.ReadFile("/proc/loadavg")
	gover, err := exec.Command("go", "version").Output()
	if err != nil {
		gover = []byte(runtime.Version())
	}
	rgver, _ := exec.Command("rg", "--version").Output()
	gitver, _ := exec.Command("git", "--version").Output()
	busy, _ := exec.Command("ps", "-eo", "pcpu,comm", "--sort=-pcpu", "--no-headers").Output()
	top := strings.Split(strings.TrimSpace(string(busy)), "\n")
	top = top[:min(len(top), 5)]
	for i := range top {
		top[i] = strings.Join(strings.Fields(top[i]), "% ")
	}
	return fmt.Sprintf("measured %s on %s/%s, %d cores, load average %s\n%s; %s; %s\nbusiest processes at start: %s",
		time.Now().UTC().Format(time.RFC3339), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		strings.Join(strings.Fields(string(load))[:3], " "), strings.TrimSpace(string(gover)),
		firstLine(rgver), strings.TrimSpace(string(gitver)), strings.Join(top, ", "))
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
