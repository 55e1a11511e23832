import { z } from 'zod';
import { datedTasksSchema } from '../settings/dated-tasks.ts';
import { eventProjectSchema, projectScopeSchema } from '../settings/project-scope.ts';
import {
  addTimeboxSchema,
  autoplanSchema,
  booleanSettingSchema,
  calendarCategorySchema,
  calendarColorSchema,
  calendarIdSchema,
  calendarPrivateSchema,
  createTodoistLabelSchema,
  editTimeboxSchema,
  labelParamSchema,
  onCompleteSchema,
  reminderSchema,
  taskDurationActiveSchema,
  taskDurationLabelSchema,
  todoistLabelParamSchema,
  todoistLinkDescriptionSchema,
  updateTodoistLabelSchema,
  wizardSeenSchema,
} from '../settings/settings.schema.ts';
import { activityNamesSchema } from './activity-names.schema.ts';
import { CONNECT_PATHS, SIGN_IN_PATHS } from './auth.schema.ts';
import { currentUserSchema } from './current-user.schema.ts';
import { endpoint } from './endpoint.ts';
import { noticePrefsSchema, noticesOffQuerySchema } from './notices.schema.ts';
import { checkoutFormSchema, clientSecretSchema, completeCheckoutSchema } from './payment.schema.ts';
import { publicConfigSchema } from './public-config.schema.ts';
import { sandboxContract } from './sandbox.contract.ts';
import {
  autoplanPreviewSchema,
  brakeChoiceBodySchema,
  brakeChoiceParamsSchema,
  changePreviewSchema,
  proposedChangeQuerySchema,
  SYNC_PATHS,
  syncActivitySchema,
  syncPreviewSchema,
} from './sync.schema.ts';

/**
 * Most calls answer with the whole updated user (docs/product-rules.md §7), which replaces the one the web
 * app holds.
 */
const user = currentUserSchema;
const emptyBody = z.object({}).optional();
const done = z.object({ ok: z.literal(true) });
/** One calendar account, by its id in `calendarSettings.accounts`. */
const calendarAccountParams = z.object({ accountId: z.uuid() });

const revoke = <const P extends string>(path: P) =>
  endpoint({ method: 'GET', path: `${path}/revoke`, response: user });

/**
 * Every call between the web app and the server, declared once (decision 010). The server registers
 * its routes from these (src/server/http/routes/), the web app calls them with `api()`.
 */
export const contract = {
  config: {
    get: endpoint({ method: 'GET', path: '/api/config', response: publicConfigSchema }),
  },
  user: {
    /** An empty body (read as null) when nobody is signed in: the web app asks this to learn its auth state. */
    current: endpoint({ method: 'GET', path: '/api/current_user', response: currentUserSchema.nullable() }),
    /** Link navigations answered with a redirect to the landing page. */
    logout: endpoint({ method: 'GET', path: '/api/logout' }),
    delete: endpoint({ method: 'GET', path: '/api/delete/user' }),
    setWizardSeen: endpoint({
      method: 'PATCH',
      path: '/api/welcome/onwizardseen',
      body: wizardSeenSchema,
      response: user,
    }),
    /** The profile's switches for notice mails (docs/product-rules.md §11). */
    setNotices: endpoint({
      method: 'PATCH',
      path: '/api/settings/notices',
      body: noticePrefsSchema,
      response: user,
    }),
  },
  notices: {
    /**
     * Turns a user's notice mails off from a mail's link, signed instead of signed in: the page behind
     * the link posts here, and so do mail clients' one-click unsubscribe (RFC 8058).
     */
    off: endpoint({ method: 'POST', path: '/api/notices/off', query: noticesOffQuerySchema, response: done }),
  },
  auth: {
    /** Navigations: to the provider, then back to the dashboard or to /login?error=<reason>. */
    signIn: {
      google: endpoint({ method: 'GET', path: SIGN_IN_PATHS.google }),
      facebook: endpoint({ method: 'GET', path: SIGN_IN_PATHS.facebook }),
    },
  },
  integrations: {
    /** Connecting is a navigation through the provider's consent page (CONNECT_PATHS); removing is a call. */
    revoke: {
      todoist: revoke(CONNECT_PATHS.todoist),
      google: revoke(CONNECT_PATHS.google),
      microsoft: revoke(CONNECT_PATHS.microsoft),
    },
    refreshTodoist: endpoint({ method: 'GET', path: '/api/todoist/updateuserprofile', response: user }),
    refreshCalendar: endpoint({ method: 'GET', path: '/api/calendar/updateuserprofile', response: user }),
    /**
     * Removes one calendar account (`calendarSettings.accounts[].id`): an added one alone, the sync's as
     * its revoke does (decision 028).
     */
    removeCalendarAccount: endpoint({
      method: 'DELETE',
      path: '/api/calendar/accounts/:accountId',
      params: calendarAccountParams,
      response: user,
    }),
    /**
     * Makes an added calendar account the sync's, the sync's an added one in its place; sync off and no
     * calendar chosen until the user chooses one of its calendars (decision 028).
     */
    syncWithCalendarAccount: endpoint({
      method: 'POST',
      path: '/api/calendar/accounts/:accountId/sync',
      params: calendarAccountParams,
      body: emptyBody,
      response: user,
    }),
  },
  todoistLabels: {
    create: endpoint({
      method: 'POST',
      path: '/api/todoist/label',
      body: createTodoistLabelSchema,
      response: user,
    }),
    setColor: endpoint({
      method: 'PATCH',
      path: '/api/todoist/label',
      body: updateTodoistLabelSchema,
      response: user,
    }),
    delete: endpoint({
      method: 'DELETE',
      path: '/api/todoist/label/:labelId',
      params: todoistLabelParamSchema,
      response: user,
    }),
  },
  timeboxes: {
    add: endpoint({ method: 'POST', path: '/api/timeboxsettings', body: addTimeboxSchema, response: user }),
    edit: endpoint({
      method: 'PATCH',
      path: '/api/timeboxsettings',
      body: editTimeboxSchema,
      response: user,
    }),
    delete: endpoint({
      method: 'DELETE',
      path: '/api/timeboxsettings/:label',
      params: labelParamSchema,
      response: user,
    }),
  },
  taskDuration: {
    setActive: endpoint({
      method: 'PATCH',
      path: '/api/taskdurationsettings/active',
      body: taskDurationActiveSchema,
      response: user,
    }),
    setLabel: endpoint({
      method: 'PATCH',
      path: '/api/taskdurationsettings/label',
      body: taskDurationLabelSchema,
      response: user,
    }),
  },
  calendar: {
    setCalendar: endpoint({
      method: 'PATCH',
      path: '/api/calendar/id',
      body: calendarIdSchema,
      response: user,
    }),
    setColor: endpoint({
      method: 'PATCH',
      path: '/api/calendar/color',
      body: calendarColorSchema,
      response: user,
    }),
    setCategory: endpoint({
      method: 'PATCH',
      path: '/api/calendar/category',
      body: calendarCategorySchema,
      response: user,
    }),
    setPrivate: endpoint({
      method: 'PATCH',
      path: '/api/calendar/private',
      body: calendarPrivateSchema,
      response: user,
    }),
    setTodoistLink: endpoint({
      method: 'PATCH',
      path: '/api/calendar/todoistlinkdescription',
      body: todoistLinkDescriptionSchema,
      response: user,
    }),
    setReminder: endpoint({
      method: 'PATCH',
      path: '/api/calendar/reminder',
      body: reminderSchema,
      response: user,
    }),
  },
  settings: {
    setOnComplete: endpoint({
      method: 'PATCH',
      path: '/api/settings/oncomplete',
      body: onCompleteSchema,
      response: user,
    }),
    setOnPreComplete: endpoint({
      method: 'PATCH',
      path: '/api/settings/onprecomplete',
      body: booleanSettingSchema,
      response: user,
    }),
    setSyncActive: endpoint({
      method: 'PATCH',
      path: '/api/settings/onsyncactive',
      body: booleanSettingSchema,
      response: user,
    }),
    setAutoplan: endpoint({
      method: 'PATCH',
      path: '/api/settings/autoplan',
      body: autoplanSchema,
      response: user,
    }),
    /** Which Todoist projects sync: all, or the chosen ones with their sub-projects. */
    setProjectScope: endpoint({
      method: 'PATCH',
      path: '/api/settings/projects',
      body: projectScopeSchema,
      response: user,
    }),
    /** The project new tasks from events go to (null: the Inbox). */
    setEventProject: endpoint({
      method: 'PATCH',
      path: '/api/settings/eventproject',
      body: eventProjectSchema,
      response: user,
    }),
    /** Tasks with a date but no time: left alone, or all-day events. */
    setDatedTasks: endpoint({
      method: 'PATCH',
      path: '/api/settings/datedtasks',
      body: datedTasksSchema,
      response: user,
    }),
  },
  /** The spec's wire names say "payment"; the product and the code say subscription. */
  subscription: {
    /** Form posts, answered with a 303 to the payment provider's hosted page. */
    checkout: endpoint({
      method: 'POST',
      path: '/api/payment/create/checkout/session',
      body: checkoutFormSchema,
    }),
    manage: endpoint({ method: 'POST', path: '/api/payment/customerportal' }),
    completeCheckout: endpoint({
      method: 'POST',
      path: '/api/payment/checkout/complete',
      body: completeCheckoutSchema,
      response: user,
    }),
    createCustomer: endpoint({
      method: 'POST',
      path: '/api/payment/create/customer',
      body: emptyBody,
      response: user,
    }),
    createIntent: endpoint({
      method: 'POST',
      path: '/api/payment/create/intent',
      body: emptyBody,
      response: clientSecretSchema,
    }),
  },
  sync: {
    activity: endpoint({ method: 'GET', path: SYNC_PATHS.activity, response: syncActivitySchema }),
    /** The titles and times of the items the activity and the brake name, read live (never stored). */
    activityNames: endpoint({
      method: 'GET',
      path: SYNC_PATHS.activityNames,
      response: activityNamesSchema,
    }),
    preview: endpoint({ method: 'GET', path: SYNC_PATHS.preview, response: syncPreviewSchema }),
    /** What a settings change would do to what is already synced, before it is saved. */
    previewChange: endpoint({
      method: 'GET',
      path: SYNC_PATHS.previewChange,
      query: proposedChangeQuerySchema,
      response: changePreviewSchema,
    }),
    /** Where "Plan my day" would place the next 7 days' dated tasks, before it is switched on. */
    previewAutoplan: endpoint({
      method: 'GET',
      path: SYNC_PATHS.previewAutoplan,
      response: autoplanPreviewSchema,
    }),
    /**
     * The user's choice on removals the safety brake held back, for all still undecided or for the items
     * named; answers the activity as it now is.
     */
    chooseHeld: endpoint({
      method: 'POST',
      path: SYNC_PATHS.held,
      params: brakeChoiceParamsSchema,
      body: brakeChoiceBodySchema,
      response: syncActivitySchema,
    }),
    /** The user has read where events were left behind by a switch of account or provider. */
    dismissLeftBehind: endpoint({
      method: 'POST',
      path: SYNC_PATHS.dismissLeftBehind,
      body: emptyBody,
      response: syncActivitySchema,
    }),
    /** The user has read that another sync writes into the calendar. */
    dismissOtherSync: endpoint({
      method: 'POST',
      path: SYNC_PATHS.dismissOtherSync,
      body: emptyBody,
      response: syncActivitySchema,
    }),
  },
  /** The sandbox console (sandbox mode only). */
  sandbox: sandboxContract,
} as const;
