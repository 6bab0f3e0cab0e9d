package main

import (
	"os"

	"github.com/ptwiki/pt/wiki"
)

// withGitAuth fills opts' credentials for an http(s) remote from the
// environment: a token in $PT_GIT_TOKEN, else $GIT_TOKEN, sent with the
// user $PT_GIT_USER (else the URL's, else x-access-token).
func withGitAuth(opts wiki.SyncOptions) wiki.SyncOptions {
	opts.GitUser = os.Getenv("PT_GIT_USER")
	for _, v := range []string{"PT_GIT_TOKEN", "GIT_TOKEN"} {
		if t := os.Getenv(v); t != "" {
			opts.GitToken = t
			break
		}
	}
	return opts
}
