import { useEffect, useRef, useState } from 'react'

const sales = [
  ['January', 18],
  ['February', 27],
  ['March', 42],
  ['April', 35],
  ['May', 57],
]
const W = 600
const H = 300
const pad = 40
const slot = (W - 2 * pad) / sales.length
const max = 60

// barAt is the bar under a point of the canvas, or -1.
function barAt(x, y) {
  const i = Math.floor((x - pad) / slot)
  if (i < 0 || i >= sales.length) return -1
  const left = pad + i * slot + slot * 0.15
  const top = H - pad - (sales[i][1] / max) * (H - 2 * pad)
  return x >= left && x <= left + slot * 0.7 && y >= top && y <= H - pad ? i : -1
}

// A bar chart drawn on a canvas by our own code, with a tooltip for the
// bar under the pointer and a click that selects a month.
export default function ChartPage() {
  const canvas = useRef(null)
  const [hover, setHover] = useState(null)
  const [month, setMonth] = useState('none')
  useEffect(() => {
    const ctx = canvas.current.getContext('2d')
    ctx.clearRect(0, 0, W, H)
    ctx.strokeStyle = '#99a'
    ctx.beginPath()
    ctx.moveTo(pad, pad / 2)
    ctx.lineTo(pad, H - pad)
    ctx.lineTo(W - pad / 2, H - pad)
    ctx.stroke()
    ctx.font = '12px system-ui'
    sales.forEach(([name, v], i) => {
      const left = pad + i * slot + slot * 0.15
      const top = H - pad - (v / max) * (H - 2 * pad)
      ctx.fillStyle = hover && hover.i === i ? '#e60' : '#58f'
      ctx.fillRect(left, top, slot * 0.7, H - pad - top)
      ctx.fillStyle = '#333'
      ctx.fillText(name.slice(0, 3), left + slot * 0.2, H - pad + 16)
    })
  }, [hover])
  const point = (e) => {
    const r = canvas.current.getBoundingClientRect()
    return [e.clientX - r.left, e.clientY - r.top]
  }
  return (
    <>
      <h1>Sales</h1>
      <div className="chart-wrap">
        <canvas
          ref={canvas}
          width={W}
          height={H}
          role="img"
          aria-label="Monthly sales chart"
          onMouseMove={(e) => {
            const [x, y] = point(e)
            const i = barAt(x, y)
            setHover(i < 0 ? null : { i, x, y })
          }}
          onMouseLeave={() => setHover(null)}
          onClick={(e) => {
            const i = barAt(...point(e))
            if (i >= 0) setMonth(sales[i][0])
          }}
        />
        {hover && (
          <div className="chart-tip" role="tooltip" style={{ left: hover.x + 12, top: hover.y - 30 }}>
            {sales[hover.i][0]}: {sales[hover.i][1]} sales
          </div>
        )}
      </div>
      <p className="out">Selected month: {month}</p>
    </>
  )
}
