/**
 * The tab strip: scrolls sideways (the mouse wheel too) and keeps the active tab in view. A
 * preview tab's title is in italics; a double click keeps it.
 */
import { useEffect, useRef } from 'preact/hooks';
import { activeTabId, dirtyTabs, keepTab, tabs } from '../state/tabs.js';
import { closeTab } from '../state/draft-actions.js';
import { CloseIcon, MethodBadge } from './Icons.js';

export function TabBar() {
  const stripRef = useRef<HTMLDivElement>(null);
  const active = activeTabId.value;
  const count = tabs.value.length;
  useEffect(() => {
    const tab = stripRef.current?.querySelector<HTMLElement>('[role=tab][aria-selected=true]');
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active, count]);
  if (count === 0) return null;
  return (
    <div
      class="tabbar"
      role="tablist"
      aria-label="Open tabs"
      ref={stripRef}
      onWheel={(e) => {
        // A vertical wheel scrolls the strip sideways, as in VS Code.
        const strip = e.currentTarget as HTMLElement;
        if (e.deltaY !== 0 && e.deltaX === 0 && strip.scrollWidth > strip.clientWidth) {
          e.preventDefault();
          strip.scrollLeft += e.deltaY;
        }
      }}
    >
      {tabs.value.map((tab) => {
        const isActive = tab.id === active;
        const dirty = dirtyTabs.value.has(tab.id);
        return (
          <div
            key={tab.id}
            role="tab"
            aria-selected={isActive}
            // The active tab takes focus (a click on it, Tab into the strip); the app's keys act from there.
            tabIndex={isActive ? 0 : -1}
            class={`tab${isActive ? ' active' : ''}${tab.preview ? ' preview' : ''}`}
            title={tab.preview ? `${tab.title} (preview: double-click or edit to keep it open)` : tab.title}
            onClick={() => (activeTabId.value = tab.id)}
            onDblClick={() => keepTab(tab.id)}
            onAuxClick={(e) => e.button === 1 && void closeTab(tab.id)}
          >
            {tab.method && <MethodBadge method={tab.method} small />}
            <span class="tab-title">{tab.title}</span>
            {dirty && <span class="dirty-dot" title="Unsaved changes" />}
            <button
              class="icon-button tab-close"
              aria-label={`Close ${tab.title}`}
              onClick={(e) => {
                e.stopPropagation();
                void closeTab(tab.id);
              }}
            >
              <CloseIcon />
            </button>
          </div>
        );
      })}
    </div>
  );
}
