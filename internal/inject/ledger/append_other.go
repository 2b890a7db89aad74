//go:build !unix

package ledger

func appendLine(path string, line []byte) (int64, error) { return appendFile(path, line) }
