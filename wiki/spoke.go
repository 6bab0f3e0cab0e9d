package wiki

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/content/secret"
)

// Layout of a space (DESIGN.md §2).
const (
	HubPath   = "index.md"
	LogPath   = "log.md"
	TopicsDir = "topics/"
	LogDir    = "log/"
)

// Markers fence the generated lists inside spokes and the hub; text outside
// them is the page's own and is kept.
const (
	membersOpen  = "<!-- pt:members (generated: edits inside are replaced) -->"
	membersClose = "<!-- /pt:members -->"
	partsOpen    = "<!-- pt:parts (generated: edits inside are replaced) -->"
	partsClose   = "<!-- /pt:parts -->"
	topicsOpen   = "<!-- pt:topics (generated: edits inside are replaced) -->"
	topicsClose  = "<!-- /pt:topics -->"
)

// member is one page as a spoke lists it.
type member struct {
	Path    string
	Title   string
	Summary string
	Topics  []string
	Listed  bool // eligible for spokes: an active content page
}

// SpokePath is the path of a topic's spoke.
func SpokePath(topic string) string { return TopicsDir + content.TopicSlug(topic) + ".md" }

// IsIndexPage reports whether p is one of the pages pt generates to navigate
// the space (hub, spokes, log), which are never spoke members themselves.
func IsIndexPage(p string) bool {
	return p == HubPath || p == LogPath || strings.HasPrefix(p, TopicsDir) || strings.HasPrefix(p, LogDir)
}

// memberOf is page p as its spokes list it. A title or summary that
// carries a credential (a page people committed) is not copied into the
// spokes: lint reports it on the page, and the spoke stays clean.
func memberOf(p string, pg *content.Page) *member {
	m := &member{Path: p, Title: foldSpace(content.Inert(pg.Meta.Title)), Summary: foldSpace(content.Inert(pg.Meta.Summary))}
	if len(secret.Scan([]byte(m.Summary))) > 0 {
		m.Summary = ""
	}
	if m.Title == "" || len(secret.Scan([]byte(m.Title))) > 0 {
		m.Title = content.TitleFromPath(p)
	}
	for _, t := range pg.Meta.Topics {
		if t = strings.TrimSpace(t); content.IsTopic(t) {
			m.Topics = append(m.Topics, t)
		}
	}
	switch pg.Meta.Kind {
	case content.KindSource, content.KindTopic, content.KindHub, content.KindLog:
	default:
		m.Listed = pg.Meta.Status == "" || pg.Meta.Status == content.StatusActive
	}
	return m
}

// remember records p's spoke membership before the batch first touches it.
func (tx *Tx) remember(ctx context.Context, p string) error {
	if _, seen := tx.before[p]; seen || IsIndexPage(p) || !strings.HasSuffix(p, ".md") {
		return nil
	}
	if _, staged := tx.staged[p]; staged {
		return nil
	}
	tx.before[p] = nil
	if tx.head == "" {
		return nil
	}
	data, _, err := tx.space.ReadFile(ctx, tx.head, p)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if pg, err := content.Parse(p, data); err == nil {
		tx.before[p] = memberOf(p, pg)
	}
	return nil
}

func (tx *Tx) after(p string) *member {
	st := tx.staged[p]
	if st == nil || st.deleted {
		return nil
	}
	if st.isMember {
		return st.member
	}
	data, err := tx.ReadFile(context.Background(), p)
	if err != nil {
		return nil
	}
	pg, err := content.Parse(p, data)
	if err != nil {
		return nil
	}
	return memberOf(p, pg)
}

// afters returns the spoke entry of every page the batch touched, as
// staged (nil when deleted or not a page). Pages are parsed on every core:
// an import stages thousands.
func (tx *Tx) afters() map[string]*member {
	paths := make([]string, 0, len(tx.before))
	for p := range tx.before {
		paths = append(paths, p)
	}
	ms := make([]*member, len(paths))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), (len(paths)+63)/64)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(paths); i += workers {
				ms[i] = tx.after(paths[i])
			}
		})
	}
	wg.Wait()
	out := make(map[string]*member, len(paths))
	for i, p := range paths {
		out[p] = ms[i]
	}
	return out
}

func sameEntry(a, b *member) bool {
	listedA, listedB := a != nil && a.Listed, b != nil && b.Listed
	if !listedA && !listedB {
		return true
	}
	if listedA != listedB {
		return false
	}
	return a.Title == b.Title && a.Summary == b.Summary && strings.Join(a.Topics, "\x00") == strings.Join(b.Topics, "\x00")
}

// updateSpokes rewrites the spokes of the topics whose membership changed in
// this batch, and the hub when a topic appeared or disappeared.
func (tx *Tx) updateSpokes(ctx context.Context) error {
	type change struct{ old, new *member }
	byTopic := map[string][]change{}
	names := map[string]string{}
	hand, rewrite, err := tx.handChanges(ctx)
	if err != nil {
		return err
	}
	for _, slug := range rewrite {
		byTopic[slug], names[slug] = nil, slug
	}
	var changes []change
	afters := tx.afters()
	for p, old := range tx.before {
		if _, staged := tx.staged[p]; !staged {
			continue
		}
		if hc, ok := hand[p]; ok {
			old = hc.old // the spokes list it as it was at the anchor
		}
		if nw := afters[p]; !sameEntry(old, nw) {
			changes = append(changes, change{old, nw})
		}
	}
	for p, hc := range hand {
		if _, staged := tx.staged[p]; !staged && !sameEntry(hc.old, hc.new) {
			changes = append(changes, change(hc))
		}
	}
	for _, c := range changes {
		old, nw := c.old, c.new
		for _, m := range []*member{old, nw} {
			if m == nil || !m.Listed {
				continue
			}
			for _, t := range m.Topics {
				slug := content.TopicSlug(t)
				if _, ok := names[slug]; !ok {
					names[slug] = t
				}
				byTopic[slug] = append(byTopic[slug], change{old, nw})
			}
		}
	}
	if len(byTopic) == 0 {
		if tx.handEdited[HubPath] {
			return tx.writeHub(ctx)
		}
		return nil
	}
	slugs := make([]string, 0, len(byTopic))
	for s := range byTopic {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	topicSetChanged := tx.handEdited[HubPath] // its list is replaced, as its marker says
	for _, slug := range slugs {
		sp, err := tx.loadSpoke(ctx, slug, names[slug])
		if err != nil {
			return err
		}
		existed := sp.exists
		for _, c := range byTopic[slug] {
			p := ""
			if c.old != nil {
				p = c.old.Path
			} else {
				p = c.new.Path
			}
			delete(sp.members, p)
			if c.new != nil && c.new.Listed && hasTopic(c.new.Topics, slug) {
				sp.members[p] = c.new
			}
		}
		if err := tx.writeSpoke(ctx, sp); err != nil {
			return err
		}
		if existed != (len(sp.members) > 0) {
			topicSetChanged = true
		}
	}
	if topicSetChanged {
		return tx.writeHub(ctx)
	}
	return nil
}

func hasTopic(ts []string, slug string) bool {
	for _, t := range ts {
		if content.TopicSlug(t) == slug {
			return true
		}
	}
	return false
}

// spoke is a topic's spoke as loaded for an update: the parent page and the
// members listed in it and in its parts.
type spoke struct {
	slug, name string
	page       *content.Page
	exists     bool
	parts      []string
	members    map[string]*member
	bounds     map[string]string // each part's least member key as loaded (memberKey)
}

var entryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^- \[(.*)\]\(([^)\s]+)\)(?: — (.*))?$`) })

func (tx *Tx) loadSpoke(ctx context.Context, slug, name string) (*spoke, error) {
	sp := &spoke{slug: slug, name: name, members: map[string]*member{}, bounds: map[string]string{}}
	p := TopicsDir + slug + ".md"
	pa, err := tx.ReadPage(ctx, p)
	switch {
	case errors.Is(err, ErrNotFound):
		// A spoke a person deleted since the space's last batch starts
		// from what it listed then: its members still have the topic.
		if pa, err = tx.pageAtAnchor(ctx, p); pa == nil || err != nil {
			return sp, err
		}
	case err != nil:
		return nil, fmt.Errorf("spoke %s: %w", p, err)
	default:
		sp.exists = true
	}
	sp.page = pa.Page
	if pa.Page.Meta.Title != "" {
		sp.name = pa.Page.Meta.Title
	}
	// The lists come from the spoke as pt last wrote it: lines a person
	// changed inside its blocks are replaced, as their markers say.
	blocks := tx.generatedBody(ctx, p, pa.Page.Body)
	sp.readEntries(p, blocks, membersOpen, membersClose)
	for _, part := range generated(blocks, partsOpen, partsClose) {
		m := entryRe().FindStringSubmatch(part)
		if m == nil {
			continue
		}
		pp, ok := memberPath(p, m[2])
		if !ok {
			continue
		}
		sp.parts = append(sp.parts, pp)
		if ppa, err := tx.ReadPage(ctx, pp); err == nil {
			if least := sp.readEntries(pp, tx.generatedBody(ctx, pp, ppa.Page.Body), membersOpen, membersClose); least != "" {
				sp.bounds[pp] = least
			}
		}
	}
	return sp, nil
}

// readEntries adds the members listed between the markers and returns the
// least of their keys ("" when none).
func (sp *spoke) readEntries(from string, body []byte, open, close string) string {
	least := ""
	for _, line := range generated(body, open, close) {
		m := entryRe().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p, ok := memberPath(from, m[2])
		if !ok {
			continue
		}
		mb := &member{Path: p, Title: content.UnescapeInline(m[1]), Summary: content.UnescapeInline(m[3]), Listed: true}
		sp.members[p] = mb
		if k := memberKey(mb); least == "" || k < least {
			least = k
		}
	}
	return least
}

// memberKey orders a spoke's members: by title, case folded, then path.
func memberKey(m *member) string {
	return strings.ToLower(m.Title) + "\x00" + m.Path
}

// generated returns the lines between a pair of markers.
func generated(body []byte, open, close string) []string {
	s := string(body)
	i := strings.Index(s, open)
	if i < 0 {
		return nil
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		s = s[:j]
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// replaceGenerated swaps the block between markers for lines, appending the
// block when the page has none.
func replaceGenerated(body, open, close string, lines []string) string {
	block := open + "\n" + strings.Join(lines, "\n")
	if len(lines) > 0 {
		block += "\n"
	}
	block += close
	i := strings.Index(body, open)
	if i < 0 {
		if body != "" && !strings.HasSuffix(body, "\n\n") {
			body = strings.TrimRight(body, "\n") + "\n\n"
		}
		return body + block + "\n"
	}
	j := strings.Index(body[i:], close)
	if j < 0 {
		return body[:i] + block + "\n"
	}
	return body[:i] + block + body[i+j+len(close):]
}

// foldSpace puts text on one line, as an entry shows it.
func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// entryLine is a member's line in a spoke or the hub. Its title and summary
// are escaped (content.EscapeInline): a title holding a link, emphasis or
// HTML shows as written, and one holding a block's closing marker cannot
// end the generated block early.
func entryLine(from string, m *member) string {
	l := "- [" + content.EscapeInline(m.Title) + "](" + linkTarget(content.RelLink(from, m.Path)) + ")"
	if s := content.EscapeInline(m.Summary); s != "" {
		l += " — " + s
	}
	return l
}

// linkTarget escapes what would end a Markdown link destination early or
// make it a URL's query or fragment ("pages/c#.md").
func linkTarget(p string) string {
	return strings.NewReplacer("%", "%25", " ", "%20", "(", "%28", ")", "%29", "#", "%23", "?", "%3F").Replace(p)
}

var (
	unescapeTarget = strings.NewReplacer("%25", "%", "%20", " ", "%28", "(", "%29", ")", "%23", "#", "%3F", "?", "%3f", "?")
	schemeRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`) })
)

// memberPath reads back an entry's link as linkTarget wrote it: the space
// path of the member page. A link pt would not have written (a URL, an
// absolute path, one leaving the space) is no member: a person's line
// inside the block, which the next rewrite replaces.
func memberPath(from, target string) (string, bool) {
	if schemeRe().MatchString(target) || strings.HasPrefix(target, "/") || strings.ContainsAny(target, "?#") {
		return "", false
	}
	t := unescapeTarget.Replace(target)
	p := path.Join(path.Dir(from), t)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// writeSpoke renders a spoke: its members in the page itself, or, past the
// space's bound, in parts of at most that many members linked from it, so
// that any one read of a spoke stays small.
func (tx *Tx) writeSpoke(ctx context.Context, sp *spoke) error {
	p := TopicsDir + sp.slug + ".md"
	limit := tx.space.cfg.Spoke()
	ms := make([]*member, 0, len(sp.members))
	for _, m := range sp.members {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return memberKey(ms[i]) < memberKey(ms[j]) })
	if len(ms) == 0 {
		for _, part := range append([]string{p}, sp.parts...) {
			if tx.Exists(ctx, part) {
				if err := tx.Delete(ctx, part, RoleSpoke); err != nil {
					return err
				}
			}
		}
		return nil
	}
	page := sp.page
	if page == nil {
		desc := tx.space.topicDescription(sp.name)
		body := "# " + content.EscapeInline(sp.name) + "\n\n"
		if desc != "" {
			body += desc + "\n\n"
		}
		page = content.NewPage(content.Meta{Title: sp.name, Kind: content.KindTopic, Topics: []string{sp.name}, Summary: desc}, []byte(body))
	}
	body := string(page.Body)
	var keepParts []string
	if len(ms) <= limit {
		lines := make([]string, len(ms))
		for i, m := range ms {
			lines[i] = entryLine(p, m)
		}
		body = replaceGenerated(body, membersOpen, membersClose, lines)
		body = dropGenerated(body, partsOpen, partsClose)
	} else {
		body = dropGenerated(body, membersOpen, membersClose)
		var partLines []string
		for _, pt := range sp.layParts(ms, limit) {
			pp, chunk := pt.path, pt.members
			keepParts = append(keepParts, pp)
			label := fmt.Sprintf("%s: %s – %s", sp.name, chunk[0].Title, chunk[len(chunk)-1].Title)
			partLines = append(partLines, entryLine(p, &member{Path: pp, Title: label}))
			lines := make([]string, len(chunk))
			for j, m := range chunk {
				lines[j] = entryLine(pp, m)
			}
			partBody := "# " + content.EscapeInline(label) + "\n\nPart of [" + content.EscapeInline(sp.name) + "](" + content.RelLink(pp, p) + ").\n\n"
			partBody = replaceGenerated(partBody, membersOpen, membersClose, lines)
			pg := content.NewPage(content.Meta{Title: label, Kind: content.KindTopic, Topics: []string{sp.name}}, []byte(partBody))
			if _, err := tx.Put(ctx, pp, pg, RoleSpoke); err != nil {
				return err
			}
		}
		body = replaceGenerated(body, partsOpen, partsClose, partLines)
	}
	for _, old := range sp.parts {
		if !contains(keepParts, old) && tx.Exists(ctx, old) {
			if err := tx.Delete(ctx, old, RoleSpoke); err != nil {
				return err
			}
		}
	}
	page.Body = []byte(body)
	_, err := tx.Put(ctx, p, page, RoleSpoke)
	return err
}

func dropGenerated(body, open, close string) string {
	i := strings.Index(body, open)
	if i < 0 {
		return body
	}
	j := strings.Index(body[i:], close)
	if j < 0 {
		return body[:i]
	}
	return body[:i] + strings.TrimPrefix(body[i+j+len(close):], "\n")
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Space) topicDescription(name string) string {
	slug := content.TopicSlug(name)
	for _, h := range s.cfg.Topics {
		if content.TopicSlug(h.Name) == slug {
			return h.Description
		}
	}
	return ""
}

// writeHub renders the hub: the topics only, one line each, linking their
// spokes (DESIGN.md §2).
func (tx *Tx) writeHub(ctx context.Context) error {
	topics := map[string]*member{}
	if tx.head != "" {
		es, err := tx.space.List(ctx, tx.head, TopicsDir)
		if err != nil {
			return err
		}
		for _, e := range es {
			if path.Dir(e.Path)+"/" == TopicsDir {
				topics[e.Path] = nil
			}
		}
	}
	for p, st := range tx.staged {
		if strings.HasPrefix(p, TopicsDir) && path.Dir(p)+"/" == TopicsDir {
			if st.deleted {
				delete(topics, p)
			} else {
				topics[p] = nil
			}
		}
	}
	paths := make([]string, 0, len(topics))
	for p := range topics {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	lines := make([]string, 0, len(paths))
	for _, p := range paths {
		m := &member{Path: p, Title: strings.TrimSuffix(path.Base(p), ".md")}
		if pa, err := tx.ReadPage(ctx, p); err == nil {
			if pa.Page.Meta.Title != "" {
				m.Title = pa.Page.Meta.Title
			}
			m.Summary = pa.Page.Meta.Summary
		}
		lines = append(lines, entryLine(HubPath, m))
	}
	hub, err := tx.ReadPage(ctx, HubPath)
	var page *content.Page
	if err == nil {
		page = hub.Page
	} else if errors.Is(err, ErrNotFound) {
		page = newHub(tx.space.cfg.Name)
	} else {
		return err
	}
	page.Body = []byte(replaceGenerated(string(page.Body), topicsOpen, topicsClose, lines))
	_, err = tx.Put(ctx, HubPath, page, RoleHub)
	return err
}

func newHub(name string) *content.Page {
	if name == "" {
		name = "Knowledge base"
	}
	body := "# " + content.EscapeInline(name) + "\n\nThe topics of this knowledge base. Each links to its spoke, which lists the topic's pages with a one-line summary.\n\n" +
		topicsOpen + "\n" + topicsClose + "\n"
	return content.NewPage(content.Meta{Title: name, Kind: content.KindHub}, []byte(body))
}
