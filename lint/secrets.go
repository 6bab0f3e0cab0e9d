package lint

import "fmt"

// secrets reports the credentials in a page, one row per kind at its first
// line: pages people commit with git never pass the secret gate. The
// message names the kind and the line, never the secret.
func secrets(p *page, add func(check, path string, line int, target, msg string)) {
	for _, f := range p.Secrets {
		add(CheckSecret, p.path, f.Line, f.Kind,
			fmt.Sprintf("a credential (%s) at line %d: remove it from the page and its history, and rotate it; until then the page is withheld from queries, read_page and resources", f.Kind, f.Line))
	}
}
