package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// state is what StateDir/state.json keeps between processes.
type state struct {
	Name      string    `json:"name"`
	PID       int       `json:"pid"`
	PGID      int       `json:"pgid"`
	ProcStart string    `json:"procStart,omitempty"` // Linux: the PID's start time, against PID reuse
	Port      int       `json:"port"`
	URL       string    `json:"url,omitempty"`
	Ready     bool      `json:"ready"`
	ReadyBy   string    `json:"readyBy,omitempty"` // http, pattern or port
	StartedAt time.Time `json:"startedAt"`
	Logs      Logs      `json:"logs"`
	Run       string    `json:"run"`
	Dir       string    `json:"dir"`
}

func (m *Managed) statePath() string { return filepath.Join(m.spec.StateDir, "state.json") }

// loadState reads the state file; nil when there is none.
func (m *Managed) loadState() (*state, error) {
	b, err := os.ReadFile(m.statePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil || st.PID <= 0 {
		return nil, fmt.Errorf("%s: unreadable state (remove it to start over): %v", m.statePath(), err)
	}
	return &st, nil
}

// saveState writes the state file atomically: a temporary file, then rename.
func (m *Managed) saveState(st *state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(m.spec.StateDir, ".state-*.json")
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), m.statePath())
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

func (m *Managed) clearState() error {
	err := os.Remove(m.statePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
