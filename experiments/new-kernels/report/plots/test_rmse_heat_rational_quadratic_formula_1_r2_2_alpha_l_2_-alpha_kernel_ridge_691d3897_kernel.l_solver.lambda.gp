# kexp plot; run `gnuplot test_rmse_heat_rational_quadratic_formula_1_r2_2_alpha_l_2_-alpha_kernel_ridge_691d3897_kernel.l_solver.lambda.gp` here to redraw test_rmse_heat_rational_quadratic_formula_1_r2_2_alpha_l_2_-alpha_kernel_ridge_691d3897_kernel.l_solver.lambda.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_heat_rational_quadratic_formula_1_r2_2_alpha_l_2_-alpha_kernel_ridge_691d3897_kernel.l_solver.lambda.svg'
set title 'rational_quadratic formula=(1 + r2 / (2 * alpha * l^2))^(-alpha) · kernel_ridge precision=double (dual): test RMSE over l and λ'
set xlabel 'l (kernel.l)'
set ylabel 'λ (solver.lambda)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:3.5]
set yrange [-0.5:3.5]
set xtics ('0.5' 0, '1' 1, '2' 2, '4' 3)
set ytics ('0.0001' 0, '0.001' 1, '0.01' 2, '0.1' 3)
unset grid
set cblabel 'test RMSE (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 1.3299077937354378
1 0 1.4903130223514662
2 0 1.3114896287559608
3 0 1.0718101283036523

0 1 1.3290322137597252
1 1 1.4016741275611295
2 1 1.1244160878226963
3 1 1.2343026979483671

0 2 1.3217879429919424
1 2 1.2250805079040408
2 2 1.1343968514958682
3 2 1.6162987081898188

0 3 1.3085482817973668
1 3 1.2068185378052652
2 3 1.4656494929696475
3 3 2.0260439658542646

EOD
set object 1 rect from 3-0.5, 0-0.5 to 3+0.5, 0+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
