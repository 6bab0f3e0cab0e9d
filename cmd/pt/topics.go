package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ptwiki/pt/retrieve"
	"github.com/ptwiki/pt/wiki"
)

func init() { register(newTopicsCmd) }

// topicList is the JSON of pt topics.
type topicList struct {
	Topics []wiki.TopicCount `json:"topics"`
}

func newTopicsCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "topics [TOPIC]",
		Short: "list the topics with their page counts, or one topic's pages",
		Args:  argsN(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := e.open()
			if err != nil {
				return err
			}
			defer s.Close()
			f := wiki.PageFilter{}
			if len(args) == 1 {
				f.Topic = args[0]
			}
			ps, err := s.Catalog(e.ctx, "", f)
			if err != nil {
				return err
			}
			if f.Topic == "" {
				l := &topicList{Topics: wiki.TopicCounts(ps)}
				return e.emit(l, func(w io.Writer) { printTopics(w, l) })
			}
			if len(ps) == 0 {
				return fmt.Errorf("topic %q: %w (pt topics lists them)", f.Topic, retrieve.ErrNoTopic)
			}
			l := &pageList{Topic: topicName(ps, f.Topic), Pages: ps}
			return e.emit(l, func(w io.Writer) { printPages(w, l) })
		},
	}
}

// topicName is the topic as the pages spell it.
func topicName(ps []wiki.PageInfo, asked string) string {
	for _, tc := range wiki.TopicCounts(ps) {
		if wiki.SpokePath(tc.Topic) == wiki.SpokePath(asked) {
			return tc.Topic
		}
	}
	return asked
}

// printTopics renders the topic list: each topic with its page count and
// spoke, then the count of topics.
func printTopics(w io.Writer, l *topicList) {
	if len(l.Topics) == 0 {
		fmt.Fprintln(w, "no topics yet: pt ingest or pt import adds pages, and their topics")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range l.Topics {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Topic, count(t.Pages, "page"), t.Spoke)
	}
	tw.Flush()
	fmt.Fprintln(w, count(len(l.Topics), "topic"))
}
