import { TASK_TYPE_LABELS } from "../../shared/schemas/task";
import type { Notices } from "../events/notices";
import { leadUrl } from "../leads/notices";

// What the tasks' events say (decision 253): a due task reminds its assignee in the bell and by push. No screen
// refreshes on a task's event over the socket.
export const taskNotices: Notices = {
  "task.due": {
    bell: (event) => {
      // The reminder (issue 27, decision 198): only the assignee, and only while they may open the lead.
      const { task } = event.payload;
      return {
        type: "task_due",
        title: "Task Due",
        message: `${TASK_TYPE_LABELS[task.type]} ${task.leadName}${task.note ? `: ${task.note}` : ""}`,
        url: leadUrl(task.leadId),
        leadId: task.leadId,
        targetRoles: [],
        people: [task.assigneeId],
      };
    },
  },
};
