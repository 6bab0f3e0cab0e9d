package web

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/ptwiki/pt/ingest"
	"github.com/ptwiki/pt/wiki"
)

// activityView is what agents did in the last Days days, for a person to
// review: the batches they wrote, with who approved each, and the
// consults asked of this clone, filed or skipped with the gate's reason.
type activityView struct {
	Days     int
	Since    time.Time
	Batches  []logRow
	Consults []ingest.ConsultRecord // newest first
	Filed    int
	Skipped  int
	ByGate   []checkCount
}

// Default and maximum windows of the agent activity view.
const (
	defaultDays = 7
	maxDays     = 366
)

func (site *Site) serveAgents(w http.ResponseWriter, r *http.Request) {
	days, err := intParam(r, "days", defaultDays, 1, maxDays)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	v, err := site.activity(r.Context(), days)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	site.render(w, r, "agents", page{Title: "Agent activity", Nav: "agents", Data: v})
}

// agentBatch reports whether an agent wrote the commit: a batch with an
// Agent trailer (an agent token's direct write) or a consult filed back.
func agentBatch(c wiki.Commit) bool {
	return c.Batch != nil && (c.Batch.AgentName != "" || c.Batch.Kind == wiki.KindFileBack)
}

// activityPage is how many commits the walk reads at a time.
const activityPage = 100

// activity walks the branch back to the start of the window.
func (site *Site) activity(ctx context.Context, days int) (activityView, error) {
	v := activityView{Days: days, Since: site.since(days)}
	rev := wiki.Rev("")
walk:
	for {
		cs, err := site.space.History(ctx, rev, activityPage)
		if err != nil {
			return v, err
		}
		for _, c := range cs {
			if c.When.Before(v.Since) {
				break walk
			}
			if !agentBatch(c) {
				continue
			}
			row, err := site.logRow(ctx, c)
			if err != nil {
				return v, err
			}
			v.Batches = append(v.Batches, row)
		}
		if len(cs) < activityPage || cs[len(cs)-1].Parent == "" {
			break
		}
		rev = wiki.Rev(cs[len(cs)-1].Parent)
	}
	rs, err := ingest.ReadConsultLog(site.space, v.Since)
	if err != nil {
		return v, err
	}
	slices.Reverse(rs)
	head, err := site.space.Head(ctx)
	if err != nil {
		return v, err
	}
	rs = slices.DeleteFunc(rs, func(r ingest.ConsultRecord) bool { return r.Page != "" && !site.sees(ctx, r.Page, head) })
	v.Consults = rs
	gates := map[string]int{}
	for _, r := range rs {
		if r.Verdict == ingest.VerdictFiled {
			v.Filed++
		} else {
			v.Skipped++
			gates[r.Gate]++
		}
	}
	for g, n := range gates {
		v.ByGate = append(v.ByGate, checkCount{g, n})
	}
	sort.Slice(v.ByGate, func(i, j int) bool {
		return v.ByGate[i].N > v.ByGate[j].N || v.ByGate[i].N == v.ByGate[j].N && v.ByGate[i].Check < v.ByGate[j].Check
	})
	return v, nil
}
