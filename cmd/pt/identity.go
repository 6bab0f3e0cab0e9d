package main

import (
	"os"
	"os/user"

	"github.com/ptwiki/pt/content"
	"github.com/ptwiki/pt/wiki"
)

// identity is who a CLI batch is by: $PT_AUTHOR, else git's author
// variables, else the user.name and user.email of git's config for the
// space's repository, else the login name. The CLI is driven by a person.
func (e *env) identity() wiki.Author {
	a := wiki.Author{Kind: content.AuthorHuman}
	for _, v := range []string{"PT_AUTHOR", "GIT_AUTHOR_NAME"} {
		if n := os.Getenv(v); n != "" {
			a.Name = n
			break
		}
	}
	a.Email = os.Getenv("GIT_AUTHOR_EMAIL")
	if a.Name == "" || a.Email == "" {
		dir, err := e.spaceDir()
		if err != nil {
			dir = "."
		}
		name, email := wiki.GitUser(dir)
		if a.Name == "" {
			a.Name = name
		}
		if a.Email == "" {
			a.Email = email
		}
	}
	if a.Name == "" {
		if u, err := user.Current(); err == nil {
			a.Name = u.Username
		}
	}
	if a.Name == "" {
		a.Name = "pt"
	}
	return a
}
