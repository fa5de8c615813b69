// Every calculator's chip list offers the reader's own chip (my-chip.js): registered with core
// by the runtime's entry, so a calculator of any domain has it.
import { registerFormHook } from '../core/form-hooks.js';
import { attachMyChip, resolveMyChip } from './my-chip.js';

registerFormHook({ attach: attachMyChip, resolve: resolveMyChip });
