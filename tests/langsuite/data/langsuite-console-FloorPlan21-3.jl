{"content": "You are an autonomous intelligent agent tasked with rearranging a vitual home. System will randomly change between 1 to 5 objects in the room. Your goal is to identify which objects have changed and reset those objects to their original state.\nHere are the information you will have: \nOriginal status: The original room status that you should remember, pay your attention to the position and openness states of each of the objects. Then find out all the changed objects and reset them to their origianl states.\nObs: These are the objects you can see. You can see at most 8.0 step(s) in front of you; 60 degrees on your left, 60 degrees on your right.\nInventory: These are the objects you are holding. You can hold at most 1 objects.\nFeedback: Whether the action is succeed or not and why is it.\n\n At each step, you can choose to think your plan or execute an action from one of the following: \n`goto [object_name]`: it means you go to the object you see.\n`pick_up [object_name]`: Use this action to pick up a pickupable and visible object within 8.0 step(s).\n`drop [object_name]`: it means you place the object in hand at the place just in front of you.\n`open [object_name]`: it means you open an openable and visible object within 8.0 step(s).\n`close [object_name]`: it means you close a closeable and visible object.\n`stop [answer]`: Issue this action when you believe the task is complete. If you believe the task is impossible to complete, provide the answer as 'N/A' in the bracket.\n\nTo be successful, it is very important to follow the following rules:\n1. You should only issue ONE action or ONE thought that is valid given the current observation\n2. When you issue a action, and ONLY ONE action is enough, and then wait for your feedback from system.\n3. Generate the action in the correct format starting with \"Act:\" For example, \"Act: pick_up [cup_0]\" Do not add adjectives before object name.\n4. State your thought or think process starting with \"Thought:\"\n5. You can ONLY operate the object within your view distance.\n6. If got action failed feedback, try to take other actions to proceed the task. \n7. Issue stop action when you think you have achieved the objective. Don't generate anything after stop.\n\nHere are some examples:\nOriginal status: In the north of the room, there is a armchair_0; a pen_1; In the east of the room, there is a chair_0;.\nObs: Quickly look around you, You can see a armchair_0 and a chair_0.\n> Thought: To solve the task, I need to explore the room to find out what objects have been changed. I remember the pen_1 should be in the north of the room according to the origianl status. So I need to goto there to the chair in north if it is still there.\nOK.\n> Act: goto [chair_0]\n\nRespond YES if you can play this game.", "role": "system"}
{"action": "chat", "content": "YES", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Let's start.\nOriginal state: In the north of the room, there is a stoveburner_1, in/on it you can see a pan_0; a stoveburner_3; a stoveknob_0; a stoveknob_1; a stoveknob_3; a shelf_0; a diningtable_0, in/on it you can see a toaster_0, a pot_0, a bread_0, a lettuce_0; a shelf_3, in/on it you can see a soapbottle_0. In the northeast of the room, there is a sidetable_0, in/on it you can see a spatula_0; an opened cabinet_3; a shelf_1, in/on it you can see a dishsponge_0, a mug_0, a aluminumfoil_0, a aluminumfoil_1, a aluminumfoil_2; a shelf_2, in/on it you can see a plate_0, a peppershaker_0. In the east of the room, there is a drawer_0; a countertop_0, in/on it you can see a faucet_0, a bowl_0; a mirror_0; a cabinet_0; a sink_0; a cabinet_1; a cabinet_2; a coffeemachine_0; a fridge_0; a sink_1, in/on it you can see a saltshaker_0, a butterknife_0. In the southeast of the room, there is a lightswitch_0. In the south of the room, there is a garbagebag_0; a garbagecan_0; a diningtable_1, in/on it you can see a fork_0, a microwave_0. In the southwest of the room, there is a window_0; a blinds_0. In the northwest of the room, there is a stoveburner_0; a stoveburner_2; a stoveknob_2. In the middle of the room, there is a chair_0, in/on it you can see a egg_0, a cup_0, a diningtable_2. \nObs: You are in the middle of a room. Looking quickly around you, you see a drawer_0, a countertop_0, a stoveburner_0, a cabinet_0, a stoveburner_1, a sidetable_0, a stoveburner_2, a stoveburner_3, a cabinet_1, a cabinet_2, a cabinet_3, a coffeemachine_0, a garbagecan_0, a fridge_0, a sink_1, a shelf_0, a diningtable_0, a diningtable_1, a shelf_1, a shelf_2, a shelf_3, a chair_0, \nwhat is your next step? ", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "thought", "content": " right.", "name": "Rearrange Agent", "role": "assistant"}
{"action": "act", "content": "turn_right", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "goto [stoveknob_1]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action succeeded. You are at stoveknob_1. \nObs: In front of you, You see a stoveburner_0; a stoveburner_2; a stoveknob_2. On your left, you see a stoveburner_3; a shelf_0; a diningtable_0; a toaster_0; a bread_0; a lettuce_0; a shelf_3; a soapbottle_0. On your right, you see a stoveburner_1; a pan_0; a stoveknob_0; a stoveknob_1; a stoveknob_3; a pot_0. ", "role": "system"}
{"action": "act", "content": "turn_left", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "drop [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. Inventory is empty, nothing to drop.\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "drop [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. Inventory is empty, nothing to drop.\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "open [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "drop [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. Inventory is empty, nothing to drop.\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "pick_up [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "thought", "content": " hmm", "name": "Rearrange Agent", "role": "assistant"}
{"content": "OK.", "role": "system"}
{"action": "thought", "content": " right.", "name": "Rearrange Agent", "role": "assistant"}
{"action": "act", "content": "turn_right", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "pick_up [knife_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see knife_0 within your view distance (8.0 step(s)).\nObs: On your left, you see a lettuce_0. On your right, you see a stoveburner_0; a stoveburner_1; a pan_0; a stoveburner_2; a stoveburner_3; a stoveknob_0; a stoveknob_1; a stoveknob_2; a stoveknob_3; a shelf_0; a diningtable_0; a toaster_0; a pot_0; a bread_0; a shelf_3; a soapbottle_0. ", "role": "system"}
{"action": "act", "content": "pick_up [pan_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action succeeded. You picked pan_0 up.\nInventory: pan_0.\nObs: On your left, you see a lettuce_0. On your right, you see a stoveburner_0; a stoveburner_1; a stoveburner_2; a stoveburner_3; a stoveknob_0; a stoveknob_1; a stoveknob_2; a stoveknob_3; a shelf_0; a diningtable_0; a toaster_0; a pot_0; a bread_0; a shelf_3; a soapbottle_0. ", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "turn_left", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "pick_up [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "open [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "move_ahead", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "pick_up [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "close [apple_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action failed. You can not see apple_0 within your view distance (8.0 step(s)).\nObs: You see nothing. You can goto other objects to explore the room.", "role": "system"}
{"action": "act", "content": "goto [faucet_0]", "name": "Rearrange Agent", "role": "assistant"}
{"content": "Feedback: Action succeeded. You are at faucet_0. \nObs: In front of you, You see a bowl_0; a mirror_0. On your left, you see a fridge_0. On your right, you see a countertop_0; a faucet_0; a cabinet_0; a sink_0; a coffeemachine_0; a sink_1; a saltshaker_0; a butterknife_0. ", "role": "system"}
{"action": "thought", "content": " right.", "name": "Rearrange Agent", "role": "assistant"}
{"action": "act", "content": "turn_right", "name": "Rearrange Agent", "role": "assistant"}
{"content": "", "role": "system"}
{"action": "act", "content": "stop", "name": "Rearrange Agent", "role": "assistant"}
{"content": "You stopped the game.", "role": "system"}
{"content": "{'misplaced': 0.0, 'fixed': 0.0}", "role": "system"}
{"content": "[FAIL] You failed to complete the task.", "role": "system"}
{"content": "DONE!", "role": "system"}
{"content": "", "role": "system"}
