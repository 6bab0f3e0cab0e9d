package web

import (
	"net/url"
	"path"
	"strings"

	"github.com/ptwiki/pt/content"
)

// pageURL is the view's URL of a space path: the path itself under /, each
// segment escaped.
func pageURL(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "/" + strings.Join(segs, "/")
}

// linkMapper maps the destinations written in page `from` to the view's
// URLs: a relative link to another page of the space opens that page in
// the view, anchor kept; a link that climbs out of the space is dropped;
// external links stay as written (RenderHTML has already dropped every
// scheme but http, https and mailto).
func linkMapper(from string) func(dest string, image bool) string {
	return func(dest string, image bool) string {
		l := content.ParseLink(dest)
		switch {
		case dest == "" || strings.HasPrefix(dest, "#"):
			return dest
		case l.External:
			return dest
		}
		var target string
		if l.Absolute {
			target = strings.TrimPrefix(path.Clean(l.Path), "/")
		} else {
			t, ok := l.Resolve(from)
			if !ok {
				return ""
			}
			target = t
		}
		u := pageURL(target)
		if l.Anchor != "" && !image {
			u += "#" + url.PathEscape(l.Anchor)
		}
		return u
	}
}
