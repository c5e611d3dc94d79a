/** Notification area: renders the notification store; actions close the notification. */
import { notifications } from '../../state/notifications'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { Icon } from './icons'

function NotificationArea() {
  const list = useSignalValue(notifications.list)
  return (
    <div className="notifications" aria-live="polite" role="status">
      {list.map((n) => (
        <div key={n.id} className={`notification notification--${n.type}`} data-testid="notification">
          <p className="notification__message">{n.message}</p>
          <div className="notification__actions">
            {[n.action1, n.action2].map((a, i) =>
              a ? (
                <button
                  // biome-ignore lint/suspicious/noArrayIndexKey: at most two fixed slots
                  key={i}
                  type="button"
                  className="btn btn--small"
                  onClick={() => {
                    a.action?.()
                    notifications.remove(n.id)
                    if (a.href) window.location.assign(a.href)
                  }}
                >
                  {a.label}
                </button>
              ) : null,
            )}
            {!n.action1 && !n.action2 ? (
              <button
                type="button"
                className="notification__close"
                aria-label="Dismiss"
                onClick={() => notifications.remove(n.id)}
              >
                <Icon name="x" />
              </button>
            ) : null}
          </div>
        </div>
      ))}
    </div>
  )
}

export const NotificationsIsland = defineIsland('notifications', NotificationArea)
