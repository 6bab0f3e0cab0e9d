package gitstore

import (
	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
)

// User returns the user.name and user.email git would commit as from dir:
// the repository's own config over the global and system ones, or the
// global ones alone when dir is in no repository. Empty when unset.
func User(dir string) (name, email string) {
	var cfg *config.Config
	if r, err := gogit.PlainOpenWithOptions(dir, &gogit.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true}); err == nil {
		cfg, _ = r.ConfigScoped(config.SystemScope)
	}
	if cfg == nil {
		cfg, _ = config.LoadConfig(config.GlobalScope)
	}
	if cfg == nil {
		return "", ""
	}
	return cfg.User.Name, cfg.User.Email
}
