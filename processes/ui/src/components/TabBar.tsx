import { activeTabId, closeTab, dirtyTabs, tabs } from '../state/tabs.js';
import { CloseIcon, MethodBadge } from './Icons.js';

export function TabBar() {
  if (tabs.value.length === 0) return null;
  return (
    <div class="tabbar" role="tablist">
      {tabs.value.map((tab) => {
        const active = tab.id === activeTabId.value;
        const dirty = dirtyTabs.value.has(tab.id);
        return (
          <div
            key={tab.id}
            role="tab"
            aria-selected={active}
            class={`tab${active ? ' active' : ''}`}
            title={tab.title}
            onClick={() => (activeTabId.value = tab.id)}
            onAuxClick={(e) => e.button === 1 && closeTab(tab.id)}
          >
            {tab.method && <MethodBadge method={tab.method} small />}
            <span class="tab-title">{tab.title}</span>
            {dirty && <span class="dirty-dot" title="Unsaved changes" />}
            <button
              class="icon-button tab-close"
              aria-label={`Close ${tab.title}`}
              onClick={(e) => {
                e.stopPropagation();
                closeTab(tab.id);
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
