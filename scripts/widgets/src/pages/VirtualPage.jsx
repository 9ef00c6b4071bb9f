import { useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'

const count = 10000

export default function VirtualPage() {
  const parentRef = useRef(null)
  const [picked, setPicked] = useState('none')
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => 36,
    overscan: 5,
  })
  return (
    <>
      <h1>Parts inventory</h1>
      <p>{count.toLocaleString('en-US')} parts; only the visible rows are in the page.</p>
      <div ref={parentRef} className="virtual" tabIndex={0} role="region" aria-label="Parts list">
        <ul style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0, listStyle: 'none' }}>
          {virtualizer.getVirtualItems().map((item) => (
            <li key={item.key} style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: item.size, transform: `translateY(${item.start}px)` }}>
              <button type="button" onClick={() => setPicked(`Part ${item.index + 1}`)} style={{ width: '100%', height: '100%', textAlign: 'left' }}>
                Part {item.index + 1}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <p className="out">Picked: {picked}</p>
    </>
  )
}
