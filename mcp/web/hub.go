package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/ptwiki/pt/wiki"
)

// hubPanel is the hub's dashboard beside its topics: how big the space
// is, what needs review and what happened lately.
type hubPanel struct {
	Folders      []folderCount
	OpenFindings int
	Recent       []logRow
	AgentBatches int // batches agents wrote in the last week
	Consults     int // consults recorded here in the last week
}

// recentBatches is how many batches the hub lists.
const recentBatches = 8

func (site *Site) serveHub(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, err := site.pageAt(ctx, wiki.HubPath, "")
	if err != nil {
		site.fail(w, r, err)
		return
	}
	st, err := site.stateAt(ctx)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	hp := &hubPanel{OpenFindings: len(site.visibleFindings(ctx, st.head, st.open))}
	if hp.Folders, err = site.folderCounts(ctx, st); err != nil {
		site.fail(w, r, err)
		return
	}
	if hp.Recent, err = site.logRows(ctx, recentBatches); err != nil {
		site.fail(w, r, err)
		return
	}
	act, err := site.activity(ctx, 7)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	hp.AgentBatches, hp.Consults = len(act.Batches), len(act.Consults)
	v.Hub = hp
	site.render(w, r, "page", page{Title: v.Title, Nav: "hub", Data: v})
}

// folderView lists the files of one folder of the space.
type folderView struct {
	Dir     string
	Entries []wiki.Entry
	Folders []string
}

func (site *Site) serveFolder(w http.ResponseWriter, r *http.Request, dir string) {
	if dir == "" {
		site.serveHub(w, r)
		return
	}
	d, err := cleanOther(dir)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	ctx := r.Context()
	head, err := site.space.Head(ctx)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	es, err := site.space.List(ctx, head, d)
	if err != nil {
		site.fail(w, r, err)
		return
	}
	if len(es) == 0 {
		site.fail(w, r, notFound("folder "+d))
		return
	}
	v := folderView{Dir: d}
	seen := map[string]bool{}
	for _, e := range es {
		rest := strings.TrimPrefix(e.Path, d+"/")
		if sub, _, ok := strings.Cut(rest, "/"); ok {
			if !seen[sub] {
				seen[sub] = true
				v.Folders = append(v.Folders, d+"/"+sub)
			}
			continue
		}
		if site.sees(ctx, e.Path, head) {
			v.Entries = append(v.Entries, e)
		}
	}
	site.render(w, r, "folder", page{Title: d + "/", Data: v})
}

// since is the start of the last n days by the space's clock.
func (site *Site) since(days int) time.Time {
	return site.now().Add(-time.Duration(days) * 24 * time.Hour)
}
