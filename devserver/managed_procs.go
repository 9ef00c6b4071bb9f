package devserver

// alive reports whether the server's main process still runs.
func (m *Managed) alive(st *state) bool {
	m.mu.Lock()
	k := m.kids[st.PID]
	m.mu.Unlock()
	if k != nil {
		select {
		case <-k.done:
			return false
		default:
		}
	}
	return procRef{PID: st.PID, Start: st.ProcStart}.alive()
}

// procRef names a process by PID and, where known, start time.
type procRef struct {
	PID   int
	Start string
}

// alive reports whether the process runs and is the one named (not a zombie,
// not a new process that got the PID).
func (p procRef) alive() bool {
	if procAvailable() {
		pi, err := readProcStat(p.PID)
		return err == nil && pi.live() && (p.Start == "" || p.Start == pi.Start)
	}
	return pidAlive(p.PID)
}

// groupOurs reports whether signalling st's process group reaches our
// processes: the leader is ours and alive, or no process holds its PID.
func groupOurs(st *state) bool {
	if st.PGID <= 0 {
		return false
	}
	if st.PGID != st.PID {
		return true
	}
	return procRef{PID: st.PID, Start: st.ProcStart}.alive() || !pidAlive(st.PGID)
}

// members lists the live processes of the server: its main process and
// descendants (while it lives) and its process group (Linux /proc; elsewhere
// just the main process).
func members(st *state) []procRef {
	leader := procRef{PID: st.PID, Start: st.ProcStart}
	leaderAlive := leader.alive()
	if !procAvailable() {
		if leaderAlive {
			return []procRef{leader}
		}
		return nil
	}
	root := -1
	if leaderAlive {
		root = st.PID
	}
	var out []procRef
	for _, p := range processTree(root, st.PGID) {
		if p.PID == st.PID && !leaderAlive {
			continue // someone else's process that got the PID
		}
		out = append(out, procRef{PID: p.PID, Start: p.Start})
	}
	return out
}

// groupLeft reports, where /proc cannot list the group, whether the server's
// process group still has members.
func groupLeft(st *state) bool {
	return !procAvailable() && groupOurs(st) && groupAlive(st.PGID)
}
