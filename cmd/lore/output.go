package main

import "encoding/json"

// printJSON is lore's one --json writer: one document indented two spaces,
// with &, < and > left as they are (a command line reads better unescaped,
// and nothing renders this output as HTML).
func (g *Globals) printJSON(v any) error {
	enc := json.NewEncoder(g.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printJSONLines writes one compact document per line, for outputs that
// are streams of records (lore scan --json), so a reader can take them
// line by line.
func printJSONLines[T any](g *Globals, vs []T) error {
	enc := json.NewEncoder(g.Stdout)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return nil
}
