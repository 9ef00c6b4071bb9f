import { Link, useParams } from 'react-router'

const orders = [
  { id: '1001', customer: 'Ada Lovelace', total: '$120.00', status: 'Shipped' },
  { id: '1002', customer: 'Grace Hopper', total: '$75.50', status: 'Processing' },
  { id: '1003', customer: 'Alan Turing', total: '$19.99', status: 'Delivered' },
]

export function Orders() {
  return (
    <>
      <h1>Orders</h1>
      <ul>
        {orders.map((o) => (
          <li key={o.id}><Link to={`/orders/${o.id}`}>Order #{o.id}</Link> for {o.customer}</li>
        ))}
      </ul>
    </>
  )
}

export function Order() {
  const { id } = useParams()
  const o = orders.find((x) => x.id === id)
  if (!o) return <NotFound />
  return (
    <>
      <h1>Order #{o.id}</h1>
      <p className="out">Status: {o.status}</p>
      <p>{o.customer}, {o.total}</p>
      <Link to="/orders">All orders</Link>
    </>
  )
}

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <Link to="/">Back home</Link>
    </>
  )
}
