package web

import (
	"net/http"
	"sort"

	"github.com/ptwiki/pt/lint"
)

// findingsView lists open findings, filtered by check.
type findingsView struct {
	Check    string
	Checks   []checkCount
	Findings []lint.Finding
	Total    int
}

// checkCount is how many open findings one check has.
type checkCount struct {
	Check string
	N     int
}

func (site *Site) serveFindings(w http.ResponseWriter, r *http.Request) {
	st, err := site.stateAt(r.Context())
	if err != nil {
		site.fail(w, r, err)
		return
	}
	check := r.URL.Query().Get("check")
	n := map[string]int{}
	open := site.visibleFindings(r.Context(), st.head, st.open)
	v := findingsView{Check: check, Total: len(open)}
	for _, f := range open {
		n[f.Check]++
		if check == "" || f.Check == check {
			v.Findings = append(v.Findings, f)
		}
	}
	for c, k := range n {
		v.Checks = append(v.Checks, checkCount{c, k})
	}
	sort.Slice(v.Checks, func(i, j int) bool { return v.Checks[i].Check < v.Checks[j].Check })
	sort.SliceStable(v.Findings, func(i, j int) bool {
		a, b := v.Findings[i], v.Findings[j]
		if ra, rb := lint.SeverityRank(a.Severity), lint.SeverityRank(b.Severity); ra != rb {
			return ra > rb
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	site.render(w, r, "findings", page{Title: "Findings", Nav: "findings", Data: v})
}
