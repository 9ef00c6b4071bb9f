import { lazy, Suspense, useEffect, useState } from 'react'
import { Link, Navigate, Route, Routes } from 'react-router'
import { Toaster } from 'sonner'
import { AuthProvider, useAuth } from './auth.jsx'
import ShortcutsDialog from './ShortcutsDialog.jsx'
import Home from './pages/Home.jsx'
import { SignIn, Dashboard, Admin, PasswordSettings } from './pages/Account.jsx'
import { Orders, Order, NotFound } from './pages/Orders.jsx'

// Pages load on demand, as a real app splits its routes: the editors and
// the grids are big.
const LexicalPage = lazy(() => import('./pages/LexicalPage.jsx'))
const TipTapPage = lazy(() => import('./pages/TipTapPage.jsx'))
const CodeMirrorPage = lazy(() => import('./pages/CodeMirrorPage.jsx'))
const MonacoPage = lazy(() => import('./pages/MonacoPage.jsx'))
const SlatePage = lazy(() => import('./pages/SlatePage.jsx'))
const QuillPage = lazy(() => import('./pages/QuillPage.jsx'))
const RadixPage = lazy(() => import('./pages/RadixPage.jsx'))
const MuiPage = lazy(() => import('./pages/MuiPage.jsx'))
const HeadlessPage = lazy(() => import('./pages/HeadlessPage.jsx'))
const AriaPage = lazy(() => import('./pages/AriaPage.jsx'))
const ReactSelectPage = lazy(() => import('./pages/ReactSelectPage.jsx'))
const AgGridPage = lazy(() => import('./pages/AgGridPage.jsx'))
const TablePage = lazy(() => import('./pages/TablePage.jsx'))
const VirtualPage = lazy(() => import('./pages/VirtualPage.jsx'))
const SortablePage = lazy(() => import('./pages/SortablePage.jsx'))
const FormPage = lazy(() => import('./pages/FormPage.jsx'))
const ToastsPage = lazy(() => import('./pages/ToastsPage.jsx'))
const PricingPage = lazy(() => import('./pages/PricingPage.jsx'))
const ShoelacePage = lazy(() => import('./pages/ShoelacePage.jsx'))
const FramesPage = lazy(() => import('./pages/FramesPage.jsx'))
const ChartPage = lazy(() => import('./pages/ChartPage.jsx'))

function Header() {
  const { user } = useAuth()
  return (
    <header>
      <nav aria-label="Main" style={{ display: 'flex', gap: 16 }}>
        <Link to="/">Home</Link>
        <Link to="/dashboard">Dashboard</Link>
        <Link to="/orders">Orders</Link>
      </nav>
      <span className="who">{user ? `Signed in as ${user}` : <Link to="/signin">Sign in</Link>}</span>
    </header>
  )
}

// isTyping: a key pressed in a field belongs to the field, not to the
// app's shortcuts.
function isTyping(el) {
  if (!el) return false
  const tag = el.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable
}

export default function App() {
  const [shortcuts, setShortcuts] = useState(false)
  useEffect(() => {
    const onKey = (e) => {
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target)) {
        e.preventDefault()
        setShortcuts(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  return (
    <AuthProvider>
      <Header />
      <main>
        <Suspense fallback={<p>Loading…</p>}>
          <Routes>
            <Route path="/" element={<Home />} />
            <Route path="/signin" element={<SignIn />} />
            <Route path="/dashboard" element={<RequireUser><Dashboard /></RequireUser>} />
            <Route path="/admin" element={<RequireUser><Admin /></RequireUser>} />
            <Route path="/settings/password" element={<RequireUser><PasswordSettings /></RequireUser>} />
            <Route path="/orders" element={<Orders />} />
            <Route path="/orders/:id" element={<Order />} />
            <Route path="/editors/lexical" element={<LexicalPage />} />
            <Route path="/editors/tiptap" element={<TipTapPage />} />
            <Route path="/editors/codemirror" element={<CodeMirrorPage />} />
            <Route path="/editors/monaco" element={<MonacoPage />} />
            <Route path="/editors/slate" element={<SlatePage />} />
            <Route path="/editors/quill" element={<QuillPage />} />
            <Route path="/radix" element={<RadixPage />} />
            <Route path="/mui" element={<MuiPage />} />
            <Route path="/headless" element={<HeadlessPage />} />
            <Route path="/aria" element={<AriaPage />} />
            <Route path="/react-select" element={<ReactSelectPage />} />
            <Route path="/grid" element={<AgGridPage />} />
            <Route path="/table" element={<TablePage />} />
            <Route path="/virtual" element={<VirtualPage />} />
            <Route path="/sortable" element={<SortablePage />} />
            <Route path="/form" element={<FormPage />} />
            <Route path="/toasts" element={<ToastsPage />} />
            <Route path="/pricing" element={<PricingPage />} />
            <Route path="/web-components" element={<ShoelacePage />} />
            <Route path="/frames" element={<FramesPage />} />
            <Route path="/chart" element={<ChartPage />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </main>
      <ShortcutsDialog open={shortcuts} onOpenChange={setShortcuts} />
      <Toaster />
    </AuthProvider>
  )
}

function RequireUser({ children }) {
  const { user } = useAuth()
  return user ? children : <Navigate to="/signin" replace />
}
