package browser

import (
	"context"
	"encoding/json"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
)

// toJSONSafe turns whatever a page function returns into a value JSON can
// carry, in the page, before it is returned by value: Chrome refuses to
// return a cyclic object by value ("Object reference chain is too long"),
// and returns a DOM node, a Map or a Date as {}. Cycles become
// "[Circular ~.path]" (shared objects that are no cycle are repeated);
// nodes their tag, id and classes (node lists arrays); functions, symbols and bigints their
// text; NaN, Infinity and -0 strings; Maps and Sets arrays or objects;
// errors {name, message, stack}; a getter that throws "[Thrown: ...]".
// Depth and size are bounded, what is cut says so.
const toJSONSafe = `(value) => {
  let budget = 20000;
  const stack = new Map();
  const cut = '[… cut: the result is too big]';
  const nodeText = (n) => {
    if (n.nodeType === 1) {
      let s = '<' + n.localName + (n.id ? '#' + n.id : '');
      for (const c of n.classList || []) s += '.' + c;
      return s + '>';
    }
    if (n.nodeType === 3) return '#text ' + JSON.stringify(String(n.data).slice(0, 80));
    if (n.nodeType === 9) return '[Document ' + (n.URL || '') + ']';
    return '[' + n.nodeName + ']';
  };
  const walk = (x, depth, path) => {
    switch (typeof x) {
      case 'string': return x.length > 1000000 ? x.slice(0, 1000000) + cut : x;
      case 'boolean': return x;
      case 'number': return Number.isFinite(x) ? (Object.is(x, -0) ? '-0' : x) : String(x);
      case 'undefined': return null;
      case 'bigint': return String(x) + 'n';
      case 'symbol': return String(x);
      case 'function': return '[Function' + (x.name ? ': ' + x.name : '') + ']';
    }
    if (x === null) return null;
    if (--budget < 0 || depth > 32) return cut;
    if (stack.has(x)) return '[Circular ' + stack.get(x) + ']';
    try {
      if (typeof Node !== 'undefined' && x instanceof Node) return nodeText(x);
      if (typeof Window !== 'undefined' && x instanceof Window) return '[Window ' + x.location.href + ']';
      if (x instanceof Date) return isNaN(x) ? 'Invalid Date' : x.toISOString();
      if (x instanceof RegExp) return String(x);
      if (x instanceof Error) return { name: x.name, message: x.message, stack: String(x.stack || '') };
    } catch (e) {
      return '[Thrown: ' + (e && e.message) + ']';
    }
    stack.set(x, path);
    let out;
    try {
      const listy = typeof NodeList !== 'undefined' && (x instanceof NodeList || x instanceof HTMLCollection);
      if (Array.isArray(x) || ArrayBuffer.isView(x) || x instanceof Set || listy) {
        out = [];
        let i = 0;
        for (const e of x) {
          if (budget <= 0) { out.push(cut); break; }
          out.push(walk(e, depth + 1, path + '[' + i++ + ']'));
        }
      } else if (x instanceof Map) {
        out = [];
        for (const [k, v] of x) {
          if (budget <= 0) { out.push(cut); break; }
          out.push([walk(k, depth + 1, path + '.key'), walk(v, depth + 1, path + '.value')]);
        }
      } else if (typeof x.toJSON === 'function') {
        out = walk(x.toJSON(), depth + 1, path);
      } else {
        out = {};
        for (const k of Object.keys(x)) {
          if (budget <= 0) { out['…'] = cut; break; }
          let v;
          try { v = x[k]; } catch (e) { v = '[Thrown: ' + (e && e.message) + ']'; }
          out[k] = walk(v, depth + 1, path + '.' + k);
        }
      }
    } catch (e) {
      out = '[Thrown: ' + (e && e.message) + ']';
    }
    stack.delete(x);
    return out;
  };
  return walk(value, 0, '~');
}`

// Evaluate runs a JavaScript function (or expression) in the page's own
// world, with the target element as its argument when target is set, and
// returns its result as JSON.
func (p *Page) Evaluate(ctx context.Context, function, target string) (json.RawMessage, error) {
	cctx, cancel := p.callCtx(ctx, p.m.opts.ActionTimeout)
	defer cancel()
	var res runtime.CallFunctionOnResult
	for attempt := 0; ; attempt++ {
		err := p.evaluateOnce(cctx, function, target, &res)
		if err != nil && attempt < 3 && contextGoneRE.MatchString(err.Error()) && cctx.Err() == nil {
			// A navigation (or an error page) replaced the document the
			// context belonged to: run in its successor.
			continue
		}
		if _, ok := AsError(err); ok {
			return nil, err // e.g. the function opened a dialog, which blocks it
		}
		if err != nil {
			return nil, p.ctxError(cctx, err, "evaluate")
		}
		break
	}
	if d := res.ExceptionDetails; d != nil {
		return nil, scriptError(d, "fix the function; it runs in the page like a <script>")
	}
	r := res.Result
	switch {
	case r == nil || r.Type == runtime.RemoteObjectTypeUndefined:
		return json.RawMessage("null"), nil
	case len(r.Value) > 0:
		return json.RawMessage(r.Value), nil
	case r.UnserializableValue != "":
		return json.Marshal(string(r.UnserializableValue))
	}
	return json.Marshal(r.Description)
}

// evaluateOnce runs the function once in the page's world of the target's
// frame (the main frame without a target). A context that Chrome says is
// gone is forgotten, so that the next attempt waits for its successor.
func (p *Page) evaluateOnce(ctx context.Context, function, target string, res *runtime.CallFunctionOnResult) error {
	frame, obj := p.frame, runtime.RemoteObjectID("")
	if target != "" {
		var err error
		if frame, obj, err = p.elementInPageWorld(ctx, target); err != nil {
			return err
		}
	}
	pw, err := p.pageWorldOf(ctx, frame)
	if err != nil {
		return p.ctxError(ctx, err, "find the page's JavaScript context")
	}
	params := runtime.CallFunctionOnParams{
		// The user's text may be a function or a plain expression.
		FunctionDeclaration: "function(el) { const f = (" + function + "\n); const v = typeof f === 'function' ? f(el) : f; " +
			"return Promise.resolve(v).then(" + toJSONSafe + "); }",
		ExecutionContextID: pw.id, ReturnByValue: new(true), AwaitPromise: new(true), UserGesture: new(true)}
	if obj != "" {
		params.Arguments = []*runtime.CallArgument{{ObjectID: obj}}
	}
	err = p.unlessDialog(ctx, func(ctx context.Context) error {
		var err error
		*res, err = callOn(ctx, pw.host, runtime.CallFunctionOn, params)
		return err
	}, false)
	if err != nil && contextGoneRE.MatchString(err.Error()) {
		p.forgetWorld(pw)
	}
	return err
}

// elementInPageWorld resolves target in the engine's world and hands the
// same DOM node to the page's own world of its frame, where page scripts'
// objects live.
func (p *Page) elementInPageWorld(ctx context.Context, target string) (cdp.FrameID, runtime.RemoteObjectID, error) {
	var objID runtime.RemoteObjectID
	var w execContext
	loc, err := p.resolveIn(ctx, target, func(loc located) error {
		var err error
		if w, err = p.worldOf(ctx, loc.frame); err != nil {
			return p.ctxError(ctx, err, "resolve "+target)
		}
		res, err := callOn(ctx, w.host, runtime.Evaluate, runtime.EvaluateParams{Expression: loc.expr, UniqueContextID: w.unique})
		if err != nil {
			return p.ctxError(ctx, err, "resolve "+target)
		}
		if res.ExceptionDetails != nil {
			return p.engineError(ctx, w, res.ExceptionDetails)
		}
		objID = res.Result.ObjectID
		return nil
	})
	if err != nil {
		return "", "", err
	}
	desc, err := callOn(ctx, w.host, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: objID})
	if err != nil {
		return "", "", p.ctxError(ctx, err, "resolve "+target)
	}
	pw, err := p.pageWorldOf(ctx, loc.frame)
	if err != nil {
		return "", "", p.ctxError(ctx, err, "resolve "+target)
	}
	node, err := callOn(ctx, pw.host, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: desc.Node.BackendNodeID, ExecutionContextID: pw.id})
	if err != nil {
		return "", "", p.ctxError(ctx, err, "resolve "+target)
	}
	return loc.frame, node.Object.ObjectID, nil
}
