import { useState } from 'react'
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'

function Task({ id }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id })
  const style = { transform: CSS.Transform.toString(transform), transition }
  return (
    <li ref={setNodeRef} style={style} {...attributes} {...listeners}>
      {id}
    </li>
  )
}

export default function SortablePage() {
  const [items, setItems] = useState(['Plan the release', 'Write the tests', 'Fix the bugs', 'Ship it'])
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const onDragEnd = ({ active, over }) => {
    if (over && active.id !== over.id) {
      setItems((xs) => arrayMove(xs, xs.indexOf(active.id), xs.indexOf(over.id)))
    }
  }
  return (
    <>
      <h1>Release checklist</h1>
      <p>Drag the tasks into order, or focus one and use Space and the arrow keys.</p>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={items} strategy={verticalListSortingStrategy}>
          <ul className="sortable" aria-label="Tasks">
            {items.map((id) => <Task key={id} id={id} />)}
          </ul>
        </SortableContext>
      </DndContext>
      <p className="out">Order: {items.join(', ')}</p>
    </>
  )
}
