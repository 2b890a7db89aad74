package main

import (
	"io"
	"reflect"
	"testing"
)

// TestCommandParserFindsEveryCommand: every top-level command of the whole
// model is found by commandField, so `lore <command> ...` gets the parser
// that models it alone, with the same flags and arguments.
func TestCommandParserFindsEveryCommand(t *testing.T) {
	var cli CLI
	full, err := newParser(&cli, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Model.Children) < 20 {
		t.Fatalf("the whole model has %d commands", len(full.Model.Children))
	}
	for _, node := range full.Model.Children {
		if _, _, ok := commandField(reflect.ValueOf(&cli).Elem(), node.Name); !ok {
			t.Errorf("%s: not found, takes the whole model", node.Name)
			continue
		}
		narrow, err := commandParser(&cli, []string{node.Name}, io.Discard, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", node.Name, err)
		}
		if len(narrow.Model.Children) != 1 || narrow.Model.Children[0].Name != node.Name {
			t.Fatalf("%s: narrow model %v", node.Name, narrow.Model.Children)
		}
		got, want := narrow.Model.Children[0].Summary()+narrow.Model.Children[0].Help, node.Summary()+node.Help
		if got != want || len(narrow.Model.Flags) != len(full.Model.Flags) {
			t.Errorf("%s: narrow %q (%d global flags), whole %q (%d)", node.Name, got, len(narrow.Model.Flags), want, len(full.Model.Flags))
		}
	}
}
