package doctor

import (
	"path/filepath"
)

// Places are the files outside the repository that decide whether an agent
// runs lore's hooks. Locate finds them from the environment; tests set
// them to folders of their own, so no test reads the developer's files.
type Places struct {
	// CodexConfig is $CODEX_HOME/config.toml (~/.codex by default): project
	// trust and each hook's trusted hash.
	CodexConfig string
	// ClaudeUser is the user's settings.json ($CLAUDE_CONFIG_DIR, else
	// ~/.claude); ClaudeManaged the folder of managed-settings.json and
	// managed-settings.d/.
	ClaudeUser, ClaudeManaged string
	// GeminiUser and GeminiSystem are Gemini CLI's user and system
	// settings; GeminiTrusted its trustedFolders.json.
	GeminiUser, GeminiSystem, GeminiTrusted string
	// GeminiTrustEnv is GEMINI_CLI_TRUST_WORKSPACE as lore doctor sees it.
	GeminiTrustEnv string
}

// Locate finds the places from the environment (getenv) for the operating
// system goos. Without a home folder ($HOME, or %USERPROFILE% on Windows)
// the files in it are left out.
func Locate(getenv func(string) string, goos string) Places {
	home := getenv("HOME")
	if goos == "windows" {
		home = getenv("USERPROFILE")
	}
	inHome := func(parts ...string) string {
		if home == "" {
			return ""
		}
		return filepath.Join(append([]string{home}, parts...)...)
	}
	p := Places{
		CodexConfig:    inHome(".codex", "config.toml"),
		ClaudeUser:     inHome(".claude", "settings.json"),
		GeminiUser:     inHome(".gemini", "settings.json"),
		GeminiTrusted:  inHome(".gemini", "trustedFolders.json"),
		GeminiTrustEnv: getenv("GEMINI_CLI_TRUST_WORKSPACE"),
	}
	if d := getenv("CODEX_HOME"); d != "" {
		p.CodexConfig = filepath.Join(d, "config.toml")
	}
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		p.ClaudeUser = filepath.Join(d, "settings.json")
	}
	if f := getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH"); f != "" {
		p.GeminiTrusted = f
	}
	// Where Claude Code 2.1.330 and Gemini CLI 0.61 look for managed and
	// system settings.
	switch goos {
	case "darwin":
		p.ClaudeManaged = "/Library/Application Support/ClaudeCode"
		p.GeminiSystem = "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		p.ClaudeManaged = `C:\Program Files\ClaudeCode`
		p.GeminiSystem = `C:\ProgramData\gemini-cli\settings.json`
	default:
		p.ClaudeManaged = "/etc/claude-code"
		p.GeminiSystem = "/etc/gemini-cli/settings.json"
	}
	if f := getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); f != "" {
		p.GeminiSystem = f
	}
	return p
}
