package retrieve

import (
	"context"
	"errors"
	"fmt"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// Browse is the hub, or one topic's spoke with its parts: the JSON of
// `pt topics --json` and of the MCP tool browse_index. Every page is cited
// with the revision it was read at.
type Browse struct {
	Topic string       `json:"topic,omitempty"`
	Pages []BrowsePage `json:"pages"`
}

// BrowsePage is one navigation page as read at head.
type BrowsePage struct {
	Path     string `json:"path"`
	Revision string `json:"revision"`
	Title    string `json:"title"`
	Body     string `json:"body"`
}

// ErrNoTopic means the space has no spoke for the topic asked for.
var ErrNoTopic = errors.New("no such topic")

// Topics returns the hub when topic is "", else the topic's spoke (found by
// its slug, so "Release Process" and "release-process" are the same topic)
// followed by its parts, when the topic has grown past one spoke.
func Topics(ctx context.Context, s *wiki.Space, topic string) (*Browse, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return nil, err
	}
	read := func(p string) (BrowsePage, error) {
		pa, err := s.ReadPage(ctx, head, p)
		if err != nil {
			return BrowsePage{}, err
		}
		t := pa.Page.Meta.Title
		if t == "" {
			t = content.TitleFromPath(p)
		}
		return BrowsePage{Path: p, Revision: pa.Revision, Title: t, Body: string(pa.Page.Body)}, nil
	}
	if topic == "" {
		hub, err := read(wiki.HubPath)
		if err != nil {
			return nil, fmt.Errorf("read hub: %w", err)
		}
		return &Browse{Pages: []BrowsePage{hub}}, nil
	}
	p := wiki.SpokePath(topic)
	sp, err := read(p)
	if errors.Is(err, wiki.ErrNotFound) {
		return nil, fmt.Errorf("topic %q: %w (pt topics lists them)", topic, ErrNoTopic)
	}
	if err != nil {
		return nil, err
	}
	b := &Browse{Topic: sp.Title, Pages: []BrowsePage{sp}}
	_, parts := spokeMembers(p, []byte(sp.Body))
	for _, part := range parts {
		pp, err := read(part)
		if err != nil {
			continue // a part listed but gone: the spoke is regenerated on the next batch
		}
		b.Pages = append(b.Pages, pp)
	}
	return b, nil
}
