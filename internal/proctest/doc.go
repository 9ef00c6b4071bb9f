// Package proctest lists the processes of this machine for tests that count
// processes to prove that nothing is left behind (no Chrome, dev server,
// daemon or app process outlives the thing that started it).
//
// [List] reads every process once (Linux: /proc); [Find] and [Filter] keep
// the ones that match predicates such as [CmdlineContains], [HasEnv] and
// [Live]. Where processes cannot be listed, [List] returns an error wrapping
// [errors.ErrUnsupported] rather than an empty list, so that a test that
// checks the error cannot mistake "cannot look" for "nothing left".
package proctest
