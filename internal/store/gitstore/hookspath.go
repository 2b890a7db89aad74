package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
)

// GitDirs returns the absolute git dir of the work tree (for a linked
// worktree, <common>/worktrees/<name>) and the common dir that every
// worktree of the repository shares (hooks, config, refs, objects).
func (s *Store) GitDirs() (gitDir, commonDir string, err error) {
	dot := filepath.Join(s.Root, ".git")
	fi, err := os.Stat(dot)
	if err != nil {
		return "", "", fmt.Errorf("gitstore: %w", err)
	}
	gitDir = dot
	if !fi.IsDir() {
		data, err := os.ReadFile(dot)
		if err != nil {
			return "", "", fmt.Errorf("gitstore: %w", err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return "", "", fmt.Errorf("gitstore: %s: no \"gitdir:\" line", dot)
		}
		gitDir = absFrom(s.Root, strings.TrimSpace(rest))
	}
	commonDir = gitDir
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		commonDir = absFrom(gitDir, strings.TrimSpace(string(data)))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("gitstore: %w", err)
	}
	return gitDir, commonDir, nil
}

// HooksPath is the folder git runs this work tree's hooks from.
type HooksPath struct {
	Dir    string // absolute
	Value  string // core.hooksPath as configured; "" for the default
	Source string // the config file that set it; "" for the default <common dir>/hooks
}

// HooksPath resolves core.hooksPath the way git does: system, global, local
// and worktree config, the last one that sets it wins; a relative value is
// taken from the work tree root, where git runs hooks. Without it the hooks
// are in the common dir, shared by all linked worktrees. (include and
// includeIf sections are not followed.)
func (s *Store) HooksPath() (HooksPath, error) {
	gitDir, commonDir, err := s.GitDirs()
	if err != nil {
		return HooksPath{}, err
	}
	local, err := s.storage.Config()
	if err != nil {
		return HooksPath{}, fmt.Errorf("gitstore: read config: %w", err)
	}
	hp := HooksPath{Dir: filepath.Join(commonDir, "hooks")}
	set := func(raw *format.Config, source string) {
		if raw != nil && raw.Section("core").Options.Has("hooksPath") {
			hp.Value, hp.Source = raw.Section("core").Options.Get("hooksPath"), source
		}
	}
	if err := readEach(globalConfigFiles(), set); err != nil {
		return HooksPath{}, err
	}
	set(local.Raw, filepath.Join(commonDir, "config"))
	if local.Raw.Section("extensions").Options.Get("worktreeConfig") == "true" {
		if err := readEach([]string{filepath.Join(gitDir, "config.worktree")}, set); err != nil {
			return HooksPath{}, err
		}
	}
	if hp.Value != "" {
		dir, err := expandHome(hp.Value)
		if err != nil {
			return HooksPath{}, err
		}
		hp.Dir = absFrom(s.Root, dir)
	}
	return hp, nil
}

// readEach reads the config files in order and hands each to set.
func readEach(paths []string, set func(raw *format.Config, source string)) error {
	for _, path := range paths {
		raw, err := readRawConfig(path)
		if err != nil {
			return err
		}
		set(raw, path)
	}
	return nil
}

// expandHome expands a leading ~/ as git does.
func expandHome(dir string) (string, error) {
	rest, ok := strings.CutPrefix(dir, "~/")
	if !ok {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("gitstore: core.hooksPath %s: %w", dir, err)
	}
	return filepath.Join(home, rest), nil
}

// globalConfigFiles lists the system and global config files in the order
// git reads them (later ones override earlier ones).
func globalConfigFiles() []string {
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if f := os.Getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if f := os.Getenv("GIT_CONFIG_GLOBAL"); f != "" {
		return append(files, f)
	}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return files
}

// readRawConfig decodes one git config file; a missing file is nil.
func readRawConfig(path string) (*format.Config, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: %w", err)
	}
	defer f.Close()
	raw := format.New()
	if err := format.NewDecoder(f).Decode(raw); err != nil {
		return nil, fmt.Errorf("gitstore: %s: %w", path, err)
	}
	return raw, nil
}

// absFrom makes p absolute, relative to base when it is not already.
func absFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}
