export { docsDir, repoRoot, specsDir } from './paths.js';
export { getRegister, loadRegisters, type RegisterDef, registers } from './registers.js';
