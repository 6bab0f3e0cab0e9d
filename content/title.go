package content

import "strings"

// FirstH1 returns the text of the body's first level-one heading, as plain
// text on one line, or "" when it has none. A document that opens with
// "# ADR-0007: Use NATS JetStream" is titled by it better than by its file
// name.
func FirstH1(body []byte) string {
	return Analyze(body).FirstH1()
}

// FirstH1 is FirstH1 of the text s was analysed from.
func (s *Structure) FirstH1() string {
	for _, h := range s.Headings {
		if h.Level == 1 {
			return strings.Join(strings.Fields(h.Text), " ")
		}
	}
	return ""
}
