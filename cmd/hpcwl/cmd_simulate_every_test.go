package main

import (
	"encoding/json"
	"testing"
)

// TestSimulatePassEveryEvent: the option is recorded in the report and
// runs more scheduling passes than one per instant (KTH-SP2 has instants
// with several events).
func TestSimulatePassEveryEvent(t *testing.T) {
	var got [2]struct {
		Parameters struct {
			PassEveryEvent bool `json:"pass_every_event"`
		} `json:"parameters"`
		Events int64 `json:"events"`
	}
	for i, args := range [][]string{
		{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--kill", "--json"},
		{"simulate", "builtin:KTH-SP2", "--scheduler", "easy", "--kill", "--json", "--pass-every-event"},
	} {
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &got[i]); err != nil {
			t.Fatal(err)
		}
	}
	if got[0].Parameters.PassEveryEvent || !got[1].Parameters.PassEveryEvent {
		t.Errorf("pass_every_event recorded %v and %v, want false and true", got[0].Parameters.PassEveryEvent, got[1].Parameters.PassEveryEvent)
	}
	if got[0].Events != got[1].Events {
		t.Errorf("events %d and %d: the same events must be processed", got[0].Events, got[1].Events)
	}
}
