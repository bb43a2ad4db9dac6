# kexp plot; run `gnuplot test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.gp` here to redraw test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_heat_polynomial_dual_gd_dual_kernel.degree_solver.iterations.svg'
set title 'polynomial · dual_gd (dual): test RMSE over degree and iterations'
set xlabel 'degree (kernel.degree)'
set ylabel 'iterations (solver.iterations)'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Framed: the best square. An empty square: no cell there finished with a finite error.' at screen 0.01, screen 0.0218 left font ',12'
set xrange [-0.5:4.5]
set yrange [-0.5:3.5]
set xtics ('1' 0, '2' 1, '3' 2, '4' 3, '5' 4)
set ytics ('1' 0, '10' 1, '100' 2, '1000' 3)
unset grid
set cblabel 'test RMSE (mean over repeats)'
set palette defined (0 '#FFFFD9', 0.4 '#C7E9B4', 0.7 '#41B6C4', 1 '#225EA8')
$heat << EOD
0 0 0.48712945303746363
1 0 0.48623677358038636
2 0 0.4595136558559494
3 0 0.4543312896363154
4 0 0.43791557819496324

0 1 0.4629323163328552
1 1 0.46282951396960625
2 1 0.3518936574974579
3 1 0.3288651659106778
4 1 0.2831861985068744

0 2 0.46285607558406994
1 2 0.4677427776118765
2 2 0.13022036363774178
3 2 0.15800171507416946
4 2 0.15574805861203142

0 3 0.46285607558407754
1 3 0.467755251449205
2 3 0.11191403649422069
3 3 0.1530169275199242
4 3 0.1932330552422425

EOD
set object 1 rect from 2-0.5, 3-0.5 to 2+0.5, 3+0.5 front fillstyle empty border lc rgb '#D55E00' lw 4
plot $heat using 1:2:3 with image pixels notitle, \
     $heat using 1:2:(sprintf('%.3g', $3)) with labels notitle textcolor rgb '#000000'
